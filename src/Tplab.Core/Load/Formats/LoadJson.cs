using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Load.Summary;

namespace Tplab.Load.Formats;

/// <summary>
/// The <c>load</c> JSON object (schema in docs/load.md), written field by field so the lab can embed the very
/// same object in its summary.json. Times in milliseconds, durations in seconds, rates per second.
/// </summary>
public static class LoadJson
{
    /// <summary>Version of the schema; bumped when a field changes meaning or goes away.</summary>
    public const int SchemaVersion = 1;

    /// <summary>Writes the summary as one JSON object at the writer's current position.</summary>
    public static void Write(Utf8JsonWriter writer, LoadSummary summary)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(summary);
        var s = summary;
        writer.WriteStartObject();
        writer.WriteNumber("schemaVersion", SchemaVersion);
        writer.WriteString("url", s.Url.ToString());
        writer.WriteString("model", s.Model);
        writer.WriteString("engine", s.Engine);
        writer.WriteNumber("concurrency", s.Concurrency);
        writer.WriteBoolean("keepAlive", s.KeepAlive);
        writer.WriteBoolean("interrupted", s.Interrupted);
        writer.WriteNumber("requests", s.Requests);
        writer.WriteNumber("succeeded", s.Succeeded);
        writer.WriteNumber("failed", s.Failed);
        writer.WriteNumber("durationSeconds", Round(s.DurationSeconds));
        writer.WriteNumber("throughputPerSecond", Round(s.ThroughputPerSecond));
        Stats(writer, "latencyMs", s.LatencyMs);
        if (s.HandlerTiming is { } timing)
        {
            HandlerTiming(writer, timing);
        }
        StatusCodes(writer, s.StatusCodes);
        writer.WriteStartArray("errors");
        foreach (var error in s.Errors)
        {
            writer.WriteStartObject();
            writer.WriteString("message", error.Message);
            writer.WriteNumber("count", error.Count);
            writer.WriteEndObject();
        }
        writer.WriteEndArray();
        writer.WriteNumber("bytesIn", s.BytesIn);
        writer.WriteNumber("bytesOut", s.BytesOut);
        if (s.Model == "open")
        {
            writer.WriteNumber("targetRate", Round(s.TargetRate ?? 0));
            writer.WriteNumber("achievedRate", Round(s.AchievedRate ?? 0));
            writer.WriteNumber("lateSends", s.LateSends ?? 0);
            writer.WriteNumber("unsent", s.Unsent ?? 0);
            writer.WriteNumber("lateThresholdMs", Round(s.LateThresholdMs ?? 0));
            Stats(writer, "sendLagMs", s.SendLagMs);
            Stats(writer, "serviceTimeMs", s.ServiceTimeMs);
        }
        if (s.Thresholds.Count > 0)
        {
            writer.WriteStartArray("thresholds");
            foreach (var t in s.Thresholds)
            {
                writer.WriteStartObject();
                writer.WriteString("threshold", t.Threshold);
                writer.WriteString("metric", t.Metric);
                writer.WriteNumber("actual", Round(t.Actual));
                writer.WriteBoolean("passed", t.Passed);
                writer.WriteEndObject();
            }
            writer.WriteEndArray();
            if (s.AbortedBy is { } by)
            {
                writer.WriteString("abortedBy", by);
            }
        }
        writer.WriteStartArray("targets");
        foreach (var t in s.Targets)
        {
            Target(writer, t);
        }
        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static void Target(Utf8JsonWriter writer, TargetSummary t)
    {
        writer.WriteStartObject();
        writer.WriteNumber("index", t.Index);
        writer.WriteString("label", t.Label);
        writer.WriteString("method", t.Method);
        writer.WriteString("url", t.Url.ToString());
        writer.WriteNumber("requests", t.Requests);
        writer.WriteNumber("succeeded", t.Succeeded);
        writer.WriteNumber("failed", t.Failed);
        writer.WriteNumber("durationSeconds", Round(t.DurationSeconds));
        writer.WriteNumber("throughputPerSecond", Round(t.DurationSeconds > 0 ? t.Requests / t.DurationSeconds : 0));
        Stats(writer, "latencyMs", t.LatencyMs);
        if (t.HandlerTiming is { } timing)
        {
            HandlerTiming(writer, timing);
        }
        StatusCodes(writer, t.StatusCodes);
        writer.WriteNumber("bytesIn", t.BytesIn);
        writer.WriteNumber("bytesOut", t.BytesOut);
        writer.WriteEndObject();
    }

    private static void HandlerTiming(Utf8JsonWriter writer, HandlerTiming timing)
    {
        writer.WriteStartObject("handlerTiming");
        writer.WriteNumber("requests", timing.Requests);
        Stats(writer, "latencyMs", timing.LatencyMs);
        Stats(writer, "waitedForThreadMs", timing.WaitedForThreadMs);
        Stats(writer, "handlerMs", timing.HandlerMs);
        Stats(writer, "restMs", timing.RestMs);
        writer.WriteEndObject();
    }

    private static void StatusCodes(Utf8JsonWriter writer, IReadOnlyDictionary<int, long> codes)
    {
        writer.WriteStartObject("statusCodes");
        foreach (var (code, count) in codes)
        {
            writer.WriteNumber(code.ToString(CultureInfo.InvariantCulture), count);
        }
        writer.WriteEndObject();
    }

    /// <summary>The same object as a <see cref="JsonObject"/>, to place inside another document.</summary>
    public static JsonObject ToJsonObject(LoadSummary summary)
    {
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            Write(writer, summary);
        }
        return JsonNode.Parse(buffer.ToArray())!.AsObject();
    }

    private static void Stats(Utf8JsonWriter writer, string name, LatencyStats stats)
    {
        writer.WriteStartObject(name);
        writer.WriteNumber("count", stats.Count);
        writer.WriteNumber("min", Round(stats.Min));
        writer.WriteNumber("mean", Round(stats.Mean));
        writer.WriteNumber("stdDev", Round(stats.StdDev));
        writer.WriteNumber("p50", Round(stats.P50));
        writer.WriteNumber("p90", Round(stats.P90));
        writer.WriteNumber("p95", Round(stats.P95));
        writer.WriteNumber("p99", Round(stats.P99));
        writer.WriteNumber("p999", Round(stats.P999));
        writer.WriteNumber("max", Round(stats.Max));
        writer.WriteEndObject();
    }

    // Microsecond precision is all a latency carries; fewer digits keep the files readable and stable.
    private static double Round(double value) => Math.Round(value, 3);
}
