using System.Globalization;
using System.Text.RegularExpressions;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace Tplab.Reports.Terminal;

/// <summary>How figures read in a terminal cell: milliseconds below 10 s, seconds above; prose that wraps with its units.</summary>
public static partial class Cells
{
    private static readonly CultureInfo C = CultureInfo.InvariantCulture;

    /// <summary>Compact: <c>547 ms</c> below a second, <c>2.75 s</c> below ten, <c>10.7 s</c> above.</summary>
    public static string Ms(double? ms) => ms switch
    {
        null => "–",
        >= 10_000 => (ms.Value / 1000).ToString("0.0", C) + " s",
        >= 1_000 => (ms.Value / 1000).ToString("0.00", C) + " s",
        _ => ms.Value.ToString("0", C) + " ms",
    };

    public static string Rate(double? perSecond) => perSecond is double r ? r.ToString("0.0", C) : "–";

    public static string Count(long? n) => n is long v ? v.ToString("#,0", C) : "–";

    public static string Ratio(double? r) => r is double v ? v.ToString("0.0", C) + "×" : "–";

    public static string Escape(string text) => Markup.Escape(Common.TerminalText.Escape(text));

    /// <summary>
    /// A line of prose that wraps under itself: <paramref name="prefix"/> (markup) stays in its own column and the
    /// text wraps beside it, with every number kept on the same line as its unit.
    /// </summary>
    public static IRenderable Hanging(string prefix, string markup) =>
        new Grid().AddColumn(new GridColumn().NoWrap().PadLeft(0).PadRight(1)).AddColumn(new GridColumn().PadLeft(0).PadRight(0))
            .AddRow(new Markup(prefix), new Markup(KeepUnits(markup)));

    /// <summary>Joins a number to the unit after it with a no-break space, so wrapping never parts "5.0" from "s".</summary>
    public static string KeepUnits(string text) => Arrow().Replace(NumberThenUnit().Replace(text, "$1\u00a0$2"), "$1\u00a0→\u00a0$2");

    [GeneratedRegex(@"(\d) → (\d)")]
    private static partial Regex Arrow();

    [GeneratedRegex(@"(\d) (ms|s|%|×|threads?|requests?|req/s|samples?|injections?)\b")]
    private static partial Regex NumberThenUnit();
}
