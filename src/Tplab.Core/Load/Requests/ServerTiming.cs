using System.Buffers;
using System.Globalization;
using System.Text;

namespace Tplab.Load.Requests;

/// <summary>
/// Reads the handler-timing entry of a W3C <c>Server-Timing</c> response header:
/// <c>Server-Timing: handler;start=1763719200123.456;dur=1000.2</c>, where <c>start</c> is the wall-clock time
/// (Unix epoch milliseconds) at which the app's first middleware began the request and <c>dur</c> the milliseconds
/// until the response was produced. A load generator on the same machine subtracts its send time from
/// <c>start</c> to learn how long the request waited for a thread. Other entries of the header are ignored.
/// </summary>
public static class ServerTiming
{
    /// <summary>The header's name.</summary>
    public const string HeaderName = "Server-Timing";

    /// <summary>The metric's name inside the header.</summary>
    public const string MetricName = "handler";

    /// <summary>Finds the <c>handler</c> metric with numeric <c>start</c> and <c>dur</c> in one header value.</summary>
    public static bool TryParseHandler(ReadOnlySpan<char> header, out double startUnixMs, out double durationMs)
    {
        startUnixMs = double.NaN;
        durationMs = double.NaN;
        foreach (var metricRange in header.Split(','))
        {
            var metric = header[metricRange];
            var found = false;
            double start = double.NaN, dur = double.NaN;
            var first = true;
            foreach (var partRange in metric.Split(';'))
            {
                var part = metric[partRange].Trim();
                if (first)
                {
                    found = part.Equals(MetricName, StringComparison.OrdinalIgnoreCase);
                    first = false;
                    if (!found)
                    {
                        break;
                    }
                    continue;
                }
                var eq = part.IndexOf('=');
                if (eq <= 0)
                {
                    continue;
                }
                var name = part[..eq].Trim();
                var value = part[(eq + 1)..].Trim().Trim('"');
                if (!double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) || !double.IsFinite(number))
                {
                    continue;
                }
                if (name.Equals("start", StringComparison.OrdinalIgnoreCase))
                {
                    start = number;
                }
                else if (name.Equals("dur", StringComparison.OrdinalIgnoreCase))
                {
                    dur = number;
                }
            }
            if (found && !double.IsNaN(start) && !double.IsNaN(dur) && dur >= 0)
            {
                startUnixMs = start;
                durationMs = dur;
                return true;
            }
        }
        return false;
    }

    /// <summary>
    /// The same for the header's bytes as they came off the wire. The usual shape (<c>handler;start=…;dur=…</c>, plain
    /// decimals, as <see cref="Format"/> writes it) is read straight from the bytes: the socket engine meets this
    /// header on every response, and decoding and splitting it cost more than the rest of the response's parse.
    /// Anything else goes through the text parser above, so both give the same answer.
    /// </summary>
    public static bool TryParseHandler(ReadOnlySpan<byte> header, out double startUnixMs, out double durationMs)
    {
        if (TryParseUsual(header, out startUnixMs, out durationMs))
        {
            return true;
        }
        char[]? rented = null;
        var chars = header.Length <= 512 ? stackalloc char[header.Length] : (rented = ArrayPool<char>.Shared.Rent(header.Length)).AsSpan(0, header.Length);
        Encoding.Latin1.GetChars(header, chars);
        var found = TryParseHandler(chars, out startUnixMs, out durationMs);
        if (rented is not null)
        {
            ArrayPool<char>.Shared.Return(rented);
        }
        return found;
    }

    /// <summary>The header value for a handler that started at <paramref name="start"/> and ran <paramref name="duration"/>.</summary>
    public static string Format(DateTimeOffset start, TimeSpan duration) =>
        string.Create(CultureInfo.InvariantCulture, $"{MetricName};start={(start - DateTimeOffset.UnixEpoch).TotalMilliseconds:0.###};dur={duration.TotalMilliseconds:0.###}");

    // "handler" then ";name=decimal" parts up to the end or a comma, spaces around each part; false for anything else.
    // One pass over the bytes: this runs for every response of a load.
    private static bool TryParseUsual(ReadOnlySpan<byte> header, out double start, out double dur)
    {
        start = double.NaN;
        dur = double.NaN;
        var i = Spaces(header, 0);
        if (header.Length - i < 7 || !Ascii.EqualsIgnoreCase(header.Slice(i, 7), "handler"u8))
        {
            return false;
        }
        i = Spaces(header, i + 7);
        while (i < header.Length && header[i] == (byte)';')
        {
            var nameStart = i = Spaces(header, i + 1);
            while (i < header.Length && header[i] is not ((byte)'=' or (byte)';' or (byte)','))
            {
                i++;
            }
            var name = header[nameStart..i].TrimEnd((byte)' ');
            if (i == header.Length || header[i] != (byte)'=' || name.IsEmpty)
            {
                return false;
            }
            i = Spaces(header, i + 1);
            if (!TryParseDecimal(header, ref i, out var number))
            {
                return false;
            }
            i = Spaces(header, i);
            if (Ascii.EqualsIgnoreCase(name, "start"u8))
            {
                start = number;
            }
            else if (Ascii.EqualsIgnoreCase(name, "dur"u8))
            {
                dur = number;
            }
        }
        // The metric ends at the end of the header or at a comma; anything else is not the usual shape.
        return (i == header.Length || header[i] == (byte)',') && !double.IsNaN(start) && !double.IsNaN(dur);
    }

    // Digits with an optional fraction from text[i] on, up to the first other byte, whose digits as one integer stay
    // below 2^53 (a start in epoch milliseconds with three decimals does): that integer and the power of ten are exact
    // doubles, so the one division is correctly rounded, the same double as double.Parse gives.
    private static bool TryParseDecimal(ReadOnlySpan<byte> text, ref int i, out double value)
    {
        value = 0;
        long mantissa = 0;
        int digits = 0, decimals = -1;
        for (; i < text.Length; i++)
        {
            var b = text[i];
            if (b == (byte)'.' && decimals < 0)
            {
                decimals = 0;
                continue;
            }
            if ((uint)(b - '0') > 9)
            {
                break;
            }
            if (++digits > 17)
            {
                return false;
            }
            mantissa = (mantissa * 10) + (b - '0');
            decimals += decimals >= 0 ? 1 : 0;
        }
        if (digits == 0 || mantissa > (1L << 53))
        {
            return false;
        }
        value = decimals > 0 ? mantissa / Pow10[decimals] : mantissa;
        return true;
    }

    private static int Spaces(ReadOnlySpan<byte> text, int i)
    {
        while (i < text.Length && text[i] == (byte)' ')
        {
            i++;
        }
        return i;
    }

    private static readonly double[] Pow10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17];

}
