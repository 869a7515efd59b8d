using Tplab.Load.Histograms;

namespace Tplab.Load.Summary;

/// <summary>A transport error message and how many requests ended with it.</summary>
public sealed record ErrorCount(string Message, long Count);

/// <summary>
/// The outcome of one load run, computed once by <see cref="SummaryAggregator.Complete"/> and never changed;
/// every format reads only this. Times in milliseconds unless the name says seconds.
/// </summary>
public sealed record LoadSummary
{
    /// <summary>The URL loaded.</summary>
    public required Uri Url { get; init; }

    /// <summary>"closed" or "open".</summary>
    public required string Model { get; init; }

    /// <summary>The engine that sent the requests: <c>sockets</c> or <c>httpclient</c>.</summary>
    public string Engine { get; init; } = "httpclient";

    /// <summary>Closed-loop users (1 in open loop).</summary>
    public required int Concurrency { get; init; }

    /// <summary>Keep-alive was on.</summary>
    public required bool KeepAlive { get; init; }

    /// <summary>Stopped early by Ctrl+C or cancellation: the figures cover only what ran.</summary>
    public required bool Interrupted { get; init; }

    /// <summary>Requests that ended (with a response or an error).</summary>
    public required long Requests { get; init; }

    /// <summary>Responses with status 200–399.</summary>
    public required long Succeeded { get; init; }

    /// <summary>Everything else: transport errors and status 400 and above.</summary>
    public long Failed => Requests - Succeeded;

    /// <summary>Requests that got a response, whatever its status.</summary>
    public required long Responded { get; init; }

    /// <summary>Requests that ended in a transport error (refused, timeout, reset, interrupted).</summary>
    public long TransportErrors => Requests - Responded;

    /// <summary>Responses whose body length differs from the first response's (ab's "Length" failures).</summary>
    public required long LengthMismatches { get; init; }

    /// <summary>From the first send to the end of the last request.</summary>
    public required double DurationSeconds { get; init; }

    /// <summary>From the first send to the last send (vegeta's "attack").</summary>
    public required double SendingSeconds { get; init; }

    /// <summary>From the last send to the end of the last request (vegeta's "wait").</summary>
    public double WaitSeconds => Math.Max(0, DurationSeconds - SendingSeconds);

    /// <summary>Requests / duration (ab's requests per second).</summary>
    public double ThroughputPerSecond => DurationSeconds > 0 ? Requests / DurationSeconds : 0;

    /// <summary>Latency: from the scheduled send to the end (closed loop: from the actual send).</summary>
    public required LatencyStats LatencyMs { get; init; }

    /// <summary>Service time: from the actual send to the end.</summary>
    public required LatencyStats ServiceTimeMs { get; init; }

    /// <summary>From the actual send to the response headers (ab's "Waiting").</summary>
    public required LatencyStats WaitingMs { get; init; }

    /// <summary>Open loop: how late sends left behind their schedule.</summary>
    public required LatencyStats SendLagMs { get; init; }

    /// <summary>Where the time went (waited for a thread, handler, rest), when the app sent the Server-Timing handler stamp; else null.</summary>
    public HandlerTiming? HandlerTiming { get; init; }

    /// <summary>Wall-clock time the run ended (set by <see cref="LoadRunner"/>; null for a summary built elsewhere).</summary>
    public DateTimeOffset? FinishedAt { get; init; }

    /// <summary>Figures per request template, in the targets' order (one entry for a single URL).</summary>
    public IReadOnlyList<TargetSummary> Targets { get; init; } = [];

    /// <summary>Each threshold's outcome, in the order given.</summary>
    public IReadOnlyList<ThresholdResult> Thresholds { get; init; } = [];

    /// <summary>The threshold that stopped the run early (with abort on), else null.</summary>
    public string? AbortedBy { get; init; }

    /// <summary>True when every threshold passed (or there were none).</summary>
    public bool ThresholdsPassed => Thresholds.All(t => t.Passed);

    /// <summary>Sum of all service times, in seconds (siege's concurrency numerator).</summary>
    public required double TotalServiceSeconds { get; init; }

    /// <summary>Open loop: the rate asked for, per second.</summary>
    public double? TargetRate { get; init; }

    /// <summary>Open loop: sends per second actually achieved, (sent − 1) / (last actual send − the schedule's start).</summary>
    public double? AchievedRate { get; init; }

    /// <summary>Open loop: sends that left later than the late threshold.</summary>
    public long? LateSends { get; init; }

    /// <summary>Open loop: hits that were due but had not left when sending stopped (every <c>--max-in-flight</c> slot taken, or the pacer behind).</summary>
    public long? Unsent { get; init; }

    /// <summary>Open loop: the late threshold in milliseconds.</summary>
    public double? LateThresholdMs { get; init; }

    /// <summary>Responses by status code (0: no response).</summary>
    public required IReadOnlyDictionary<int, long> StatusCodes { get; init; }

    /// <summary>Transport errors grouped by message, most frequent first.</summary>
    public required IReadOnlyList<ErrorCount> Errors { get; init; }

    /// <summary>Bytes received: status lines, headers and bodies.</summary>
    public required long BytesIn { get; init; }

    /// <summary>Body bytes received (ab's "HTML transferred").</summary>
    public required long BodyBytesIn { get; init; }

    /// <summary>Bytes sent: request lines and headers.</summary>
    public required long BytesOut { get; init; }

    /// <summary>Body length of the first response (ab's "Document Length").</summary>
    public long? DocumentLength { get; init; }

    /// <summary>Server header of the first response (ab's "Server Software").</summary>
    public string? ServerSoftware { get; init; }

    /// <summary>Latency histogram in microseconds (for .hgrm); a private copy, do not record into it.</summary>
    public required LatencyHistogram LatencyHistogramMicros { get; init; }

    /// <summary>Every latency in milliseconds, sorted, when the run had at most a million (ab's exact percentile table); else null.</summary>
    public IReadOnlyList<double>? SortedLatenciesMs { get; init; }
}
