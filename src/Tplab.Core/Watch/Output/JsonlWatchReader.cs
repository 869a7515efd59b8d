using System.Globalization;
using System.Text.Json;
using Tplab.Common;
using Tplab.Watch.Delay;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Output;

/// <summary>
/// Reads back what <see cref="JsonlWatchWriter"/> wrote (<c>tplab watch --format jsonl</c>, or a lab scenario's
/// timeline.jsonl) into a <see cref="PoolTimeline"/>, so a saved watch can be written again in another format
/// (<c>tplab watch --from FILE.jsonl --format html</c>). A file cut short (no summary line) is read up to its last whole line.
/// </summary>
public static class JsonlWatchReader
{
    /// <summary>The timeline in <paramref name="reader"/>; a usage error naming the line when a line is not a watch record.</summary>
    public static PoolTimeline Read(TextReader reader)
    {
        ArgumentNullException.ThrowIfNull(reader);
        var samples = new List<ThreadPoolSample>();
        var injections = new List<ThreadPoolInjection>();
        int pid = 0;
        TimeSpan? interval = null, duration = null;
        var exited = false;
        string? delayNote = null;
        var number = 0;
        while (reader.ReadLine() is { } line)
        {
            number++;
            if (string.IsNullOrWhiteSpace(line))
            {
                continue;
            }
            try
            {
                using var doc = JsonDocument.Parse(line);
                var r = doc.RootElement;
                switch (r.GetProperty("type").GetString())
                {
                    case "sample":
                        samples.Add(new ThreadPoolSample(
                            Seconds(r, "offsetSeconds"), r.GetProperty("threadCount").GetInt32(), r.GetProperty("queueLength").GetInt64(),
                            r.GetProperty("completedPerSecond").GetDouble(), r.GetProperty("osThreads").GetInt32(), r.GetProperty("cpuPercent").GetDouble(),
                            r.GetProperty("contentionsPerSecond").GetDouble(),
                            r.GetProperty("countersAgeMs").ValueKind == JsonValueKind.Null ? null : r.GetProperty("countersAgeMs").GetDouble(),
                            Verdict(r.GetProperty("verdict").GetString()), r.GetProperty("evidence").GetString() ?? "")
                        {
                            ProcessId = r.TryGetProperty("pid", out var sp) ? sp.GetInt32() : 0,
                            Delay = r.TryGetProperty("delay", out var d) && d.ValueKind == JsonValueKind.Object ? Delay(d) : null,
                        });
                        break;
                    case "injection":
                        var code = r.GetProperty("reasonCode").GetInt64();
                        injections.Add(new ThreadPoolInjection(
                            Seconds(r, "offsetSeconds"), r.GetProperty("newThreadCount").GetInt32(), InjectionReasons.FromCode(code), code,
                            r.GetProperty("averageThroughput").GetDouble())
                        {
                            ProcessId = r.TryGetProperty("pid", out var ip) ? ip.GetInt32() : 0,
                        });
                        break;
                    case "summary":
                        pid = r.GetProperty("processId").GetInt32();
                        interval = Seconds(r, "intervalSeconds");
                        duration = Seconds(r, "durationSeconds");
                        exited = r.GetProperty("processExited").GetBoolean();
                        delayNote = r.TryGetProperty("delayNote", out var n) ? n.GetString() : null;
                        break;
                }
            }
            catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException or FormatException)
            {
                throw TplabException.Usage($"line {number.ToString(CultureInfo.InvariantCulture)} is not a tplab watch record: {e.Message}");
            }
        }
        if (samples.Count == 0)
        {
            throw TplabException.Usage("no samples: not a tplab watch --format jsonl file");
        }
        // Without a summary (the watch was killed), the interval is the usual gap between samples.
        interval ??= samples.Count > 1 ? samples[1].Offset - samples[0].Offset : TimeSpan.FromSeconds(1);
        // A file of several processes (watch PID PID, -n NAME --all) is read as the first one's.
        var only = pid != 0 ? pid : samples[0].ProcessId;
        if (samples.Any(s => s.ProcessId != 0 && s.ProcessId != only))
        {
            samples.RemoveAll(s => s.ProcessId != 0 && s.ProcessId != only);
            injections.RemoveAll(i => i.ProcessId != 0 && i.ProcessId != only);
        }
        return new PoolTimeline(only, interval.Value, duration ?? samples[^1].Offset, samples, injections, limits: null, exited) { DelayNote = delayNote };
    }

    private static TimeSpan Seconds(JsonElement r, string name) => TimeSpan.FromSeconds(r.GetProperty(name).GetDouble());

    private static PoolVerdict Verdict(string? word) =>
        Enum.GetValues<PoolVerdict>().FirstOrDefault(v => v.ToWord() == word) is var verdict && verdict.ToWord() == word
            ? verdict
            : throw new FormatException($"unknown verdict '{word}'");

    private static SchedulingDelay Delay(JsonElement d) => new(
        d.GetProperty("count").GetInt64(), d.GetProperty("meanMs").GetDouble(), d.GetProperty("p50Ms").GetDouble(), d.GetProperty("p99Ms").GetDouble(),
        d.GetProperty("maxMs").GetDouble(), d.GetProperty("unpaired").GetInt64(), d.GetProperty("waiting").GetInt32(),
        d.GetProperty("oldestWaitingMs").GetDouble(), d.GetProperty("coverageSeconds").GetDouble());
}
