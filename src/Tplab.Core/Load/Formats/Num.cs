using System.Globalization;

namespace Tplab.Load.Formats;

/// <summary>Number formatting for every format: always the invariant culture, whatever the machine's.</summary>
internal static class Num
{
    public static string F(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);

    public static string F(long value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>printf's %W.Pf: right-aligned in <paramref name="width"/>, <paramref name="decimals"/> decimals.</summary>
    public static string Fixed(double value, int decimals, int width = 0) =>
        value.ToString("F" + decimals.ToString(CultureInfo.InvariantCulture), CultureInfo.InvariantCulture).PadLeft(width);

    /// <summary>printf's %Wd.</summary>
    public static string Int(long value, int width = 0) => value.ToString(CultureInfo.InvariantCulture).PadLeft(width);
}
