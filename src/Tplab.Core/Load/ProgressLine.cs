using System.Globalization;

namespace Tplab.Load;

/// <summary>The live view of <c>tplab load</c>: one line rewritten in place about every second (meant for a terminal's stderr).</summary>
public sealed class ProgressLine(TextWriter writer) : IProgress<LoadProgress>
{
    private int _width;

    /// <inheritdoc />
    public void Report(LoadProgress value)
    {
        ArgumentNullException.ThrowIfNull(value);
        var line = string.Create(CultureInfo.InvariantCulture,
            $"  {value.Elapsed.TotalSeconds,6:0.0}s  sent {value.Sent}  done {value.Done}  in flight {value.InFlight}  errors {value.Errors}  p99 {value.P99Ms:0.0} ms");
        _width = Math.Max(_width, line.Length);
        writer.Write("\r" + line.PadRight(_width));
        writer.Flush();
    }

    /// <summary>Clears the line, so the report starts on a clean one.</summary>
    public void Finish()
    {
        if (_width > 0)
        {
            writer.Write("\r" + new string(' ', _width) + "\r");
            writer.Flush();
        }
    }
}
