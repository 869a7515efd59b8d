using Tplab.Watch.Export;

namespace Tplab.Watch.Running;

/// <summary>Opens the exporters a watch asked for (<c>--prometheus</c>, <c>--otlp</c>) behind one <see cref="ExportPump"/>.</summary>
public static class WatchExports
{
    /// <summary>The OTLP export interval: the sample interval, but at least 1 s.</summary>
    public static TimeSpan OtlpInterval(TimeSpan sampleInterval) => sampleInterval < TimeSpan.FromSeconds(1) ? TimeSpan.FromSeconds(1) : sampleInterval;

    /// <summary>
    /// The pump over the exporters of <paramref name="options"/>, or null for none. An endpoint that cannot be
    /// opened is a <c>TplabException</c> before anything is watched; a collector that is not there yet is not an
    /// error (the SDK retries; the watch says when exports fail and when they work again).
    /// </summary>
    public static ExportPump? Open(WatchRunOptions options, TextWriter notices)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(notices);
        var exporters = new List<IWatchExporter>();
        try
        {
            if (options.Prometheus is { } address)
            {
                exporters.Add(PrometheusWatchExporter.Start(address));
            }
            if (options.Otlp is { } otlp)
            {
                exporters.Add(OpenTelemetryWatchExporter.Otlp(otlp, options.OtlpProtocol, OtlpInterval(options.Interval), notices));
            }
        }
        catch
        {
            exporters.ForEach(e => e.Dispose());
            throw;
        }
        if (exporters.Count == 0)
        {
            return null;
        }
        lock (notices)
        {
            notices.WriteLine($"tplab watch: exporting to {string.Join(" and ", exporters.Select(e => e.Where))}");
            notices.Flush();
        }
        return new ExportPump(exporters, notices);
    }
}
