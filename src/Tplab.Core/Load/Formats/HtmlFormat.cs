using System.Globalization;
using System.Text.Json;
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
        var page = new LoadPageJson(
            "tplab " + typeof(HtmlFormat).Assembly.GetName().Version?.ToString(3), result.StartedAt.ToString("O", CultureInfo.InvariantCulture), LoadJson.From(result.Summary));
        var (requests, percentiles) = RequestSeries.Build(result.Records);
        var series = new Dictionary<string, SeriesJson> { ["run"] = new(requests, PoolSeriesJson.None, InjectionSeriesJson.None, percentiles) };
        HtmlReport.Write(writer, ReportKind.Load, JsonSerializer.SerializeToNode(page, LoadJsonContext.Indented.LoadPageJson)!, series);
    }
}

/// <summary>The summary a load's page draws: the tool, when the run started, and the load's JSON.</summary>
public sealed record LoadPageJson(string Tool, string StartedAt, LoadJson Load);
