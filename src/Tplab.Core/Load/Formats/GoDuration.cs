using System.Globalization;
using System.Text;

namespace Tplab.Load.Formats;

/// <summary>Go's time.Duration.String() after vegeta's rounding, so vegeta's report reads as vegeta prints it (1.002s, 92.562ms, 2m0s).</summary>
internal static class GoDuration
{
    private const long Ns = 1, Us = 1_000, Ms = 1_000_000, S = 1_000_000_000, Min = 60 * S, H = 60 * Min;

    /// <summary>vegeta's round(): keep three decimals of the largest unit (≥1h to the minute, ≥1m to the second, ≥1s to the ms, ≥1ms to the µs).</summary>
    public static string Format(double milliseconds)
    {
        var ns = (long)Math.Round(milliseconds * Ms);
        long[] units = [H, Min, S, Ms, Us, Ns];
        for (var i = 0; i < units.Length - 1; i++)
        {
            if (ns >= units[i])
            {
                var step = units[i + 1];
                ns = (long)Math.Round((double)ns / step, MidpointRounding.AwayFromZero) * step;
                break;
            }
        }
        return GoString(ns);
    }

    private static string GoString(long ns)
    {
        if (ns == 0)
        {
            return "0s";
        }
        if (ns < S)
        {
            var (unit, size) = ns < Us ? ("ns", Ns) : ns < Ms ? ("µs", Us) : ("ms", Ms);
            return Fraction(ns, size) + unit;
        }
        var text = new StringBuilder();
        if (ns >= H)
        {
            text.Append((ns / H).ToString(CultureInfo.InvariantCulture)).Append('h');
        }
        if (ns >= Min)
        {
            text.Append((ns % H / Min).ToString(CultureInfo.InvariantCulture)).Append('m');
        }
        return text.Append(Fraction(ns % Min, S)).Append('s').ToString();
    }

    // Whole part and the fraction with trailing zeros trimmed, as Go's fmtFrac does.
    private static string Fraction(long value, long size)
    {
        var whole = (value / size).ToString(CultureInfo.InvariantCulture);
        var frac = value % size;
        if (frac == 0)
        {
            return whole;
        }
        var digits = (int)Math.Log10(size);
        return whole + "." + frac.ToString(CultureInfo.InvariantCulture).PadLeft(digits, '0').TrimEnd('0');
    }
}
