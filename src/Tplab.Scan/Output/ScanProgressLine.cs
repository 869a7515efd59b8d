namespace Tplab.Scan.Output;

/// <summary>
/// scan's and fix's progress on stderr, their terminal view: lines always; the status in place on a terminal, and as a
/// line every few seconds in a log.
/// </summary>
public sealed class ScanProgressLine(TextWriter error, bool interactive, Func<long>? milliseconds = null) : IScanProgress
{
    private readonly Func<long> _now = milliseconds ?? (() => Environment.TickCount64);
    /// <summary>How often a log gets the status as a line.</summary>
    public const int EverySeconds = 5;

    private readonly Lock _gate = new();
    private bool _status;
    private long _lastLine = long.MinValue;

    public void Line(string text)
    {
        lock (_gate)
        {
            Clear();
            error.WriteLine(text);
        }
    }

    public void Status(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (!interactive)
        {
            // A log gets the counts as a line every few seconds, so a long scan shows it is moving.
            Throttled(text);
            return;
        }
        lock (_gate)
        {
            Clear();
            if (text.Length > 0)
            {
                var width = Math.Max(20, SafeWidth() - 1);
                error.Write("tplab scan: " + (text.Length > width - 12 ? text[..(width - 12)] : text));
                _status = true;
            }
        }
    }

    private void Throttled(string text)
    {
        if (text.Length == 0)
        {
            return;
        }
        var now = _now();
        lock (_gate)
        {
            if (_lastLine == long.MinValue)
            {
                // The first status starts the clock: a scan that ends within the interval prints none.
                _lastLine = now;
                return;
            }
            if (now - _lastLine < EverySeconds * 1000)
            {
                return;
            }
            _lastLine = now;
            error.WriteLine("tplab scan: " + text);
        }
    }

    private void Clear()
    {
        if (_status)
        {
            error.Write("\r\u001b[K");
            _status = false;
        }
    }

    private static int SafeWidth()
    {
        try
        {
            return Console.WindowWidth > 0 ? Console.WindowWidth : 100;
        }
        catch (IOException)
        {
            return 100;
        }
    }
}
