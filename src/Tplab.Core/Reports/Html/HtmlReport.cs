using System.Reflection;
using System.Text.Json.Nodes;

namespace Tplab.Reports.Html;

/// <summary>Which page report.js draws from the embedded data.</summary>
public enum ReportKind
{
    /// <summary><c>tplab run</c>'s report.html: experiments, seeds, every scenario's requests and pool.</summary>
    Lab,

    /// <summary>One <c>tplab load</c> run: latency charts and where each request's time went.</summary>
    Load,

    /// <summary>One <c>tplab watch</c>: the pool timeline and the verdict.</summary>
    Watch,
}

/// <summary>
/// Writes a report page: one self-contained HTML file (styles, uPlot and data inlined) that opens offline and draws
/// every table and chart in the browser from the embedded summary and series.
/// </summary>
public static class HtmlReport
{
    // Concatenated in this order: helpers first, the page last.
    private static readonly string[] Scripts = ["report-util.js", "report-charts.js", "report-seeds.js", "report.js"];

    /// <summary>Writes the page of <paramref name="kind"/> for <paramref name="summary"/> and <paramref name="series"/> (chart data per run, see <see cref="ReportSeries"/>).</summary>
    public static void Write(TextWriter writer, ReportKind kind, JsonObject summary, JsonObject series)
    {
        ArgumentNullException.ThrowIfNull(writer);
        var data = new JsonObject
        {
            ["kind"] = kind.ToString().ToLowerInvariant(),
            ["summary"] = summary.DeepClone(),
            ["series"] = series.DeepClone(),
        };
        // "</" would end the <script> element early; JSON allows the escaped form.
        var json = data.ToJsonString().Replace("</", "<\\/", StringComparison.Ordinal);
        var page = Asset("report.html")
            .Replace("/*UPLOT_CSS*/", Asset("uPlot.min.css"), StringComparison.Ordinal)
            .Replace("/*REPORT_CSS*/", Asset("report.css"), StringComparison.Ordinal)
            .Replace("/*DATA*/", json, StringComparison.Ordinal)
            .Replace("/*UPLOT_JS*/", Asset("uPlot.iife.min.js"), StringComparison.Ordinal)
            .Replace("/*REPORT_JS*/", string.Join("\n", Scripts.Select(Asset)), StringComparison.Ordinal);
        writer.Write(page);
    }

    internal static string Asset(string name)
    {
        using var stream = Assembly.GetExecutingAssembly().GetManifestResourceStream("Tplab.Report." + name)
            ?? throw new InvalidOperationException($"report asset {name} is missing from the build");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }
}
