using Spectre.Console;
using Tplab.Reports.Terminal;
using Tplab.Tests.Support;

namespace Tplab.Tests.Reports;

/// <summary>The live region redraws in place with plain escape codes, on the caller's thread, and never lets a frame scroll out of reach.</summary>
[ParallelSafe]
public sealed class LiveRegionTests
{
    private static (IAnsiConsole Console, StringWriter Screen) Terminal(int width = 60, int height = 20)
    {
        var screen = new StringWriter { NewLine = "\n" };
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.Yes,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.Yes,
            Out = new AnsiConsoleOutput(screen),
        });
        console.Profile.Width = width;
        console.Profile.Height = height;
        return (console, screen);
    }

    private static Rows Frame(params string[] lines) => new(lines.Select(l => new Text(l)));

    [Fact]
    public void Update_MovesBackOverTheLastFrame_ClearsBelow_AndDrawsTheNewOne()
    {
        var (console, screen) = Terminal();
        var region = new LiveRegion(console);

        region.Update(Frame("one", "two", "three"));
        region.Update(Frame("four"));

        var text = screen.ToString();
        Assert.Equal(1, Count(text, "\u001b[3A\r\u001b[0J"));
        Assert.EndsWith("four\n", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Above_WritesTheLineOverTheRegion_AndRedrawsTheFrameBelowIt()
    {
        var (console, screen) = Terminal();
        var region = new LiveRegion(console);
        region.Update(Frame("table"));

        region.Above(new Text("an error\n"));

        var text = screen.ToString();
        Assert.EndsWith("\u001b[1A\r\u001b[0Jan error\ntable\n", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Close_LeavesTheFrame_AndTheNextUpdateDrawsBelowIt()
    {
        var (console, screen) = Terminal();
        var region = new LiveRegion(console);
        region.Update(Frame("first experiment"));
        region.Close();

        region.Update(Frame("second experiment"));

        Assert.DoesNotContain("\u001b[", screen.ToString().Replace("\u001b[0J", "", StringComparison.Ordinal), StringComparison.Ordinal);
    }

    [Fact]
    public void Update_AFrameTallerThanTheTerminal_IsCutToFit()
    {
        var (console, screen) = Terminal(height: 6);
        var region = new LiveRegion(console);

        region.Update(Frame([.. Enumerable.Range(1, 20).Select(i => $"row {i}")]));
        region.Update(Frame("small"));

        var text = screen.ToString();
        Assert.Contains("row 4\n…\n", text, StringComparison.Ordinal);
        Assert.DoesNotContain("row 5", text, StringComparison.Ordinal);
        Assert.Contains("\u001b[5A", text, StringComparison.Ordinal);
    }

    private static int Count(string text, string part) => (text.Length - text.Replace(part, "", StringComparison.Ordinal).Length) / part.Length;
}
