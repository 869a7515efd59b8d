using System.Reflection;
using System.Text.Json.Nodes;

namespace Tplab.Reports.Html;

/// <summary>
/// Writes the lab's report.html: one self-contained page (styles, uPlot and data inlined) that opens offline
/// and draws every chart in the browser from the embedded summary and series.
/// </summary>
public static class HtmlReport
{
    /// <summary>Writes the page for <paramref name="summary"/> (summary.json's content) and <paramref name="series"/> (chart data per scenario).</summary>
    public static void Write(TextWriter writer, JsonObject summary, JsonObject series)
    {
        var data = new JsonObject { ["summary"] = summary.DeepClone(), ["series"] = series.DeepClone() };
        // "</" would end the <script> element early; JSON allows the escaped form.
        var json = data.ToJsonString().Replace("</", "<\\/", StringComparison.Ordinal);
        var page = Asset("report.html")
            .Replace("/*UPLOT_CSS*/", Asset("uPlot.min.css"), StringComparison.Ordinal)
            .Replace("/*REPORT_CSS*/", Asset("report.css"), StringComparison.Ordinal)
            .Replace("/*DATA*/", json, StringComparison.Ordinal)
            .Replace("/*UPLOT_JS*/", Asset("uPlot.iife.min.js"), StringComparison.Ordinal)
            .Replace("/*REPORT_JS*/", Asset("report.js"), StringComparison.Ordinal);
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
