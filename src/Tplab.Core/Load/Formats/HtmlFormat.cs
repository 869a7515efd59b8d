using System.Globalization;
using System.Text.Json.Nodes;
using Tplab.Reports.Html;

namespace Tplab.Load.Formats;

/// <summary>
/// <c>--format html</c>: one self-contained page with the run's latency charts (by completion, by scheduled send in
/// open loop, by percentile) and each request's timeline, split into waiting for a thread and running the handler when
/// the app sends the Server-Timing handler stamp — the equivalent of vegeta's <c>plot</c>. Needs the records.
/// </summary>
public sealed class HtmlFormat : IResultFormat
{
    /// <inheritdoc />
    public string Name => "html";

    /// <inheritdoc />
    public string Description => "a page of latency charts and each request's timeline (opens offline)";

    /// <inheritdoc />
    public IReadOnlyList<string> Extensions => [".html", ".htm"];

    /// <inheritdoc />
    public void Write(LoadResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        var summary = new JsonObject
        {
            ["tool"] = "tplab " + typeof(HtmlFormat).Assembly.GetName().Version?.ToString(3),
            ["startedAt"] = result.StartedAt.ToString("O", CultureInfo.InvariantCulture),
            ["load"] = System.Text.Json.JsonSerializer.SerializeToNode(LoadJson.From(result.Summary), LoadJsonContext.Indented.LoadJson),
        };
        var series = new JsonObject { ["run"] = ReportSeries.Build(result, timeline: null, result.StartedAt) };
        HtmlReport.Write(writer, ReportKind.Load, summary, series);
    }
}
