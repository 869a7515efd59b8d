using System.Net;
using System.Reflection;
using System.Text;
using System.Text.RegularExpressions;

namespace Tplab.Reports.Html;

/// <summary>
/// A kind of page: its title, its body (an asset of markup, or none when the page's writer gives the body), and its
/// styles and scripts (assets, inlined in this order). Assets/README.md says what each file holds.
/// </summary>
public sealed record PageLayout(string Title, string? BodyAsset, IReadOnlyList<string> Styles, IReadOnlyList<string> Scripts)
{
    /// <summary>The report pages: <c>tplab run</c>'s report.html, <c>load --format html</c>, <c>watch --format html</c> (report.js draws them).</summary>
    public static PageLayout Report { get; } = new("tplab report", "report-body.html", ["uPlot.min.css", "report.css"],
        ["uPlot.iife.min.js", "report-util.js", "report-charts.js", "report-seeds.js", "report.js"]);

    /// <summary>tune.html: the objective against the minimum, every trial, the settings (tune.js draws it).</summary>
    public static PageLayout Tune { get; } = new("tplab tune", "tune-body.html", ["uPlot.min.css", "tune.css"], ["uPlot.iife.min.js", "tune.js"]);

    /// <summary><c>compare --format html</c>: tables written by the comparison itself, no script.</summary>
    public static PageLayout Compare { get; } = new("tplab compare", null, ["compare.css"], []);
}

/// <summary>
/// The one builder of tplab's HTML pages: one self-contained file (styles, scripts and data inlined) that opens offline
/// and sends no request. A page with scripts draws itself from its embedded JSON (<c>#tplab-data</c>) and marks
/// <c>body[data-rendered]</c> when done; a page without scripts is marked rendered as written.
/// </summary>
public static partial class HtmlPage
{
    /// <summary>
    /// Writes a page of <paramref name="layout"/>: <paramref name="dataJson"/> embedded for its scripts, and
    /// <paramref name="body"/> (already escaped markup) when the layout has no body of its own.
    /// </summary>
    public static void Write(TextWriter writer, PageLayout layout, string? dataJson = null, string? body = null)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(layout);
        var parts = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["TITLE"] = WebUtility.HtmlEncode(layout.Title),
            ["STYLES"] = string.Concat(layout.Styles.Select(s => $"<style>{Asset(s)}</style>\n")).TrimEnd(),
            ["RENDERED"] = layout.Scripts.Count == 0 ? " data-rendered=\"true\"" : "",
            ["BODY"] = (layout.BodyAsset is { } asset ? Asset(asset) : body ?? "").TrimEnd(),
            // "</script" would end the element early and "<!--" change how the parser reads it: every "<" (only ever
            // inside a JSON string) goes in its escaped form, which JSON.parse reads back as "<".
            ["DATA"] = dataJson is null ? "" : $"<script id=\"tplab-data\" type=\"application/json\">{dataJson.Replace("<", "\\u003c", StringComparison.Ordinal)}</script>",
            ["SCRIPTS"] = string.Concat(layout.Scripts.Select(s => $"<script>{Asset(s)}</script>\n")).TrimEnd(),
        };
        // One pass: an inlined asset that happens to contain a marker is not read again.
        writer.Write(Marker().Replace(Asset("page.html"), m => parts[m.Groups[1].Value]));
    }

    /// <summary>An asset of Assets/, as built into the library.</summary>
    internal static string Asset(string name)
    {
        using var stream = Assembly.GetExecutingAssembly().GetManifestResourceStream("Tplab.Report." + name)
            ?? throw new InvalidOperationException($"report asset {name} is missing from the build");
        using var reader = new StreamReader(stream, Encoding.UTF8);
        return reader.ReadToEnd();
    }

    [GeneratedRegex(@"/\*(TITLE|STYLES|RENDERED|BODY|DATA|SCRIPTS)\*/")]
    private static partial Regex Marker();
}
