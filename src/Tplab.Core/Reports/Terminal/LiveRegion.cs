using Spectre.Console;
using Spectre.Console.Rendering;

namespace Tplab.Reports.Terminal;

/// <summary>
/// The bottom of an interactive terminal redrawn in place: each <see cref="Update"/> moves the cursor back over the
/// frame drawn last, clears to the end of the screen and draws the new one. It draws at once on the caller's thread,
/// under one lock: no render loop, no task to wait for (Spectre's Live display runs one, and waiting for it to start
/// blocked a pool thread inside a tool that studies pool starvation). A frame taller than the terminal is cut to fit,
/// since lines scrolled off the top cannot be redrawn. Only for a console that can move the cursor (<see cref="Consoles"/>).
/// </summary>
public sealed class LiveRegion(IAnsiConsole console)
{
    private readonly Lock _gate = new();
    private IRenderable? _frame;
    private int _drawn;

    /// <summary>Draws <paramref name="frame"/> over the previous one.</summary>
    public void Update(IRenderable frame)
    {
        ArgumentNullException.ThrowIfNull(frame);
        lock (_gate)
        {
            Erase();
            Draw(frame);
        }
    }

    /// <summary>Writes <paramref name="text"/> above the region (it stays in the terminal's scrollback), then the frame again below it.</summary>
    public void Above(IRenderable text)
    {
        ArgumentNullException.ThrowIfNull(text);
        lock (_gate)
        {
            Erase();
            console.Write(text);
            if (_frame is { } frame)
            {
                Draw(frame);
            }
        }
    }

    /// <summary>Leaves the last frame on the screen as it is; what is written next goes below it.</summary>
    public void Close()
    {
        lock (_gate)
        {
            _frame = null;
            _drawn = 0;
        }
    }

    private void Erase()
    {
        if (_drawn > 0)
        {
            // Up to the frame's first line, to its first column, then clear everything below.
            console.Write(new ControlCode($"\u001b[{_drawn}A\r\u001b[0J"));
            _drawn = 0;
        }
    }

    private void Draw(IRenderable frame)
    {
        var width = Math.Max(1, console.Profile.Width);
        var lines = Segment.SplitLines(frame.Render(RenderOptions.Create(console), width), width);
        var room = Math.Max(2, console.Profile.Height - 1);
        if (lines.Count > room)
        {
            lines = [.. lines.Take(room - 1), new SegmentLine { new Segment("…", new Style(Color.Grey)) }];
        }
        console.Write(new Lines(lines));
        _frame = frame;
        _drawn = lines.Count;
    }

    // Lines already laid out for the width, written as they are.
    private sealed class Lines(IReadOnlyList<SegmentLine> lines) : IRenderable
    {
        public Measurement Measure(RenderOptions options, int maxWidth) => new(maxWidth, maxWidth);

        public IEnumerable<Segment> Render(RenderOptions options, int maxWidth)
        {
            foreach (var line in lines)
            {
                foreach (var segment in line)
                {
                    yield return segment;
                }
                yield return Segment.LineBreak;
            }
        }
    }
}
