using Tplab.Common;
using Tplab.Load.Summary;

namespace Tplab.Load.Formats;

/// <summary>tplab's own report: counts, rates, the latency spectrum, status codes, errors, and in open loop the schedule's accuracy.</summary>
public sealed class TextFormat : ISummaryFormat
{
    /// <inheritdoc />
    public string Name => "text";

    /// <inheritdoc />
    public string Description => "tplab's summary (default)";

    /// <inheritdoc />
    public IReadOnlyList<string> Extensions => [".txt"];

    /// <inheritdoc />
    public void Write(LoadSummary summary, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(summary);
        ArgumentNullException.ThrowIfNull(writer);
        var model = summary.Model == "open"
            ? $"open loop, {Num.F(summary.TargetRate ?? 0, "0.####")}/s"
            : $"closed loop, {Num.F(summary.Concurrency)} users";
        // AbsoluteUri keeps the URL's escapes: Uri.ToString() would unescape a %07 into a bell on the terminal.
        writer.WriteLine($"tplab load {summary.Url.AbsoluteUri} ({model}, keep-alive {(summary.KeepAlive ? "on" : "off")}, engine {summary.Engine})");
        if (summary.Interrupted)
        {
            writer.WriteLine("INTERRUPTED: partial results, sending was stopped early");
        }
        writer.WriteLine($"Requests      {Num.F(summary.Requests)} (succeeded {Num.F(summary.Succeeded)}, failed {Num.F(summary.Failed)})");
        writer.WriteLine($"Duration      {Num.Fixed(summary.DurationSeconds, 3)} s");
        writer.WriteLine($"Throughput    {Num.Fixed(summary.ThroughputPerSecond, 2)} req/s");
        writer.WriteLine($"Latency (ms)  {Spectrum(summary.LatencyMs)}");
        if (summary.HandlerTiming is { } t)
        {
            writer.WriteLine($"Split (mean)  waited for a thread {Num.Fixed(t.WaitedForThreadMs.Mean, 2)} + handler {Num.Fixed(t.HandlerMs.Mean, 2)} + rest {Num.Fixed(t.RestMs.Mean, 2)} = {Num.Fixed(t.LatencyMs.Mean, 2)} ms ({Num.F(t.Requests)} of {Num.F(summary.Requests)} requests had the Server-Timing handler stamp)");
            writer.WriteLine($"Waited (ms)   {Spectrum(t.WaitedForThreadMs)}");
            writer.WriteLine($"Handler (ms)  {Spectrum(t.HandlerMs)}");
        }
        if (summary.Model == "open")
        {
            writer.WriteLine($"Service (ms)  {Spectrum(summary.ServiceTimeMs)}");
            writer.WriteLine($"Rate          target {Num.Fixed(summary.TargetRate ?? 0, 2)}/s, achieved {Num.Fixed(summary.AchievedRate ?? 0, 2)}/s");
            var lag = summary.SendLagMs;
            writer.WriteLine($"Late sends    {Num.F(summary.LateSends ?? 0)} over {Num.F(summary.LateThresholdMs ?? 0, "0.###")} ms; send lag p50 {Num.Fixed(lag.P50, 3)}, p99 {Num.Fixed(lag.P99, 3)}, max {Num.Fixed(lag.Max, 3)} ms");
            if (summary.Unsent is > 0 and var unsent)
            {
                writer.WriteLine($"Not sent      {Num.F(unsent)} hits were due but had not left when sending stopped (no latency of theirs is in these figures)");
            }
        }
        writer.WriteLine($"Status codes  {Codes(summary.StatusCodes)}");
        writer.WriteLine($"Errors        {(summary.Errors.Count == 0 ? "none" : Num.F(summary.TransportErrors) + " (count, message)")}");
        foreach (var error in summary.Errors)
        {
            writer.WriteLine($"  {Num.Int(error.Count, 8)}  {error.Message}");
        }
        if (summary.Targets.Count > 1)
        {
            Targets(summary, writer);
        }
        foreach (var check in summary.Thresholds)
        {
            var actual = check.Metric == "errors" ? Num.Fixed(check.Actual, 2) + "%" : Num.Fixed(check.Actual, 2) + " ms";
            writer.WriteLine($"Threshold     {check.Threshold}: {actual}  {(check.Passed ? "pass" : "FAIL")}");
        }
        if (summary.AbortedBy is { } by)
        {
            writer.WriteLine($"ABORTED       sending stopped early: {by} failed");
        }
    }

    private static void Targets(LoadSummary summary, TextWriter writer)
    {
        writer.WriteLine("Per target (latency ms)");
        var rows = summary.Targets.Select(t => new[]
        {
            TerminalText.Escape(t.Label), Num.F(t.Requests), Num.F(t.Failed), Num.Fixed(t.LatencyMs.Mean, 2), Num.Fixed(t.LatencyMs.P50, 2),
            Num.Fixed(t.LatencyMs.P99, 2), Num.Fixed(t.LatencyMs.Max, 2), Codes(t.StatusCodes),
        }).Prepend(["target", "requests", "failed", "mean", "p50", "p99", "max", "status codes"]).ToList();
        var widths = Enumerable.Range(0, rows[0].Length).Select(c => rows.Max(r => r[c].Length)).ToArray();
        foreach (var row in rows)
        {
            writer.WriteLine(("  " + string.Join("  ", row.Select((cell, c) => c is 0 or 7 ? cell.PadRight(widths[c]) : cell.PadLeft(widths[c])))).TrimEnd());
        }
    }

    private static string Codes(IReadOnlyDictionary<int, long> codes) =>
        codes.Count == 0 ? "none" : string.Join("  ", codes.Select(c => $"{Num.F(c.Key)}:{Num.F(c.Value)}"));

    private static string Spectrum(LatencyStats s) =>
        $"min {Num.Fixed(s.Min, 2)}  mean {Num.Fixed(s.Mean, 2)}  p50 {Num.Fixed(s.P50, 2)}  p90 {Num.Fixed(s.P90, 2)}  p95 {Num.Fixed(s.P95, 2)}  p99 {Num.Fixed(s.P99, 2)}  p99.9 {Num.Fixed(s.P999, 2)}  max {Num.Fixed(s.Max, 2)}";
}
