using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;
using Tplab.Common.Json;

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
/// A report page (<see cref="PageLayout.Report"/>): report.js draws every table and chart in the browser from the
/// embedded <see cref="ReportData"/>, the summary of the run and the series of its charts.
/// </summary>
public static class HtmlReport
{
    /// <summary>Writes the page of <paramref name="kind"/> for <paramref name="summary"/> and <paramref name="series"/> (chart data per run, see <see cref="SeriesJson"/>).</summary>
    public static void Write(TextWriter writer, ReportKind kind, JsonNode summary, IReadOnlyDictionary<string, SeriesJson> series)
    {
        var data = new ReportData(Words.Of(kind), summary, series);
        HtmlPage.Write(writer, PageLayout.Report, JsonSerializer.Serialize(data, ReportJsonContext.Line.ReportData));
    }
}

/// <summary>What report.js reads: the kind of page, the summary (summary.json's, or the load's or the watch's) and the series per run.</summary>
public sealed record ReportData(string Kind, JsonNode Summary, IReadOnlyDictionary<string, SeriesJson> Series);

/// <summary>The source-generated serializer of the report pages' data: one line.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(ReportData))]
internal sealed partial class ReportJsonContext : JsonSerializerContext
{
    public static ReportJsonContext Line { get; } = new(TplabJson.Options(indented: false));
}
