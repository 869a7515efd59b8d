using System.Globalization;
using System.Net;
using Tplab.Common;
using Tplab.Load.Engine;
using Tplab.Load.Requests;

namespace Tplab.Load;

/// <summary>
/// What to load and how. Closed loop (ab, JMeter, siege) unless <see cref="Rate"/> is set, then open loop (vegeta).
/// Every run is bounded: at least one of <see cref="Requests"/>, <see cref="Duration"/>, <see cref="Loops"/>.
/// </summary>
public sealed record LoadOptions
{
    /// <summary>Largest <see cref="Concurrency"/> accepted.</summary>
    public const int MaxConcurrency = 10_000;

    /// <summary>Largest <see cref="Rate"/> accepted, per second.</summary>
    public const double MaxRate = 100_000;

    /// <summary>Largest <see cref="Requests"/> accepted.</summary>
    public const long MaxRequests = 100_000_000;

    /// <summary>Longest <see cref="Duration"/>, <see cref="RampUp"/> or <see cref="Timeout"/> accepted.</summary>
    public static readonly TimeSpan MaxDuration = TimeSpan.FromHours(24);

    /// <summary>The URL of the load (required): what every request GETs when <see cref="Targets"/> is empty; otherwise the first target's URL, named in reports.</summary>
    public required Uri Url { get; init; }

    /// <summary>The requests to send, each in proportion to its weight. Default empty: one GET of <see cref="Url"/>.</summary>
    public IReadOnlyList<RequestTemplate> Targets { get; init; } = [];

    /// <summary>What is actually sent: <see cref="Targets"/>, or a GET of <see cref="Url"/> when there are none.</summary>
    public IReadOnlyList<RequestTemplate> EffectiveTargets => Targets.Count > 0 ? Targets : [RequestTemplate.Get(Url)];

    /// <summary>Closed loop: users, each sending its next request when its previous one ended. Default 1 (ab's default).</summary>
    public int Concurrency { get; init; } = 1;

    /// <summary>Total requests across all users (closed loop) or the hit limit (open loop). Default none.</summary>
    public long? Requests { get; init; }

    /// <summary>No request starts after this much time. Default none; required with <see cref="Rate"/> unless <see cref="Requests"/> is set.</summary>
    public TimeSpan? Duration { get; init; }

    /// <summary>
    /// Load sent before the measured run and not counted (crank's warm-up: JIT, connections, caches), with the same
    /// requests and model (a constant rate, or closed loop, when the run has stages). Default zero: none.
    /// </summary>
    public TimeSpan Warmup { get; init; }

    /// <summary>Closed loop: users start evenly over this time, the first at once (JMeter). Default zero: all at once.</summary>
    public TimeSpan RampUp { get; init; }

    /// <summary>Closed loop: requests per user (JMeter's loop count). Default none.</summary>
    public int? Loops { get; init; }

    /// <summary>Closed loop: uniform random pause between a user's requests, not counted in latency (siege -d). Default none.</summary>
    public ThinkTime? Think { get; init; }

    /// <summary>Open loop: requests per second, sent on schedule whatever the server does. Default null: closed loop.</summary>
    public double? Rate { get; init; }

    /// <summary>
    /// Open loop: a changing rate, k6's stages: from <see cref="Rate"/> (default 0) move linearly to each stage's rate
    /// over its duration. The schedule's length is their sum; <see cref="Duration"/> is not given with stages. Default none.
    /// </summary>
    public IReadOnlyList<Pacing.RateStage> Stages { get; init; } = [];

    /// <summary>Open loop: most requests in flight at once; a send waits for a slot (its latency still counts from its schedule). Default none.</summary>
    public int? MaxInFlight { get; init; }

    /// <summary>Per-request timeout; a timeout is an error in the results. Default 30 s.</summary>
    public TimeSpan Timeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Reuse connections (HTTP keep-alive). Default true; false sends <c>Connection: close</c> like ab without -k.</summary>
    public bool KeepAlive { get; init; } = true;

    /// <summary>Which engine sends the requests. Default <see cref="EngineChoice.Auto"/>: sockets for plain http on Linux, else HttpClient.</summary>
    public EngineChoice Engine { get; init; } = EngineChoice.Auto;

    /// <summary>Objectives checked at the end (k6's thresholds); any failing makes the run exit 99. Default none.</summary>
    public IReadOnlyList<Thresholds.Threshold> Thresholds { get; init; } = [];

    /// <summary>Stop sending as soon as a threshold fails (checked once a second from 2 s into the run). Default false.</summary>
    public bool AbortOnThreshold { get; init; }

    /// <summary>HTTPS: accept any server certificate (a self-signed one on loopback). Default false.</summary>
    public bool Insecure { get; init; }

    /// <summary>Allow a target that is not loopback. Default false.</summary>
    public bool AllowRemote { get; init; }

    /// <summary>
    /// Keep every <see cref="RequestRecord"/> in the result (the lab's charts). Default false: a run keeps histograms
    /// only, and per-request output streams through an <see cref="IRecordSink"/> instead.
    /// </summary>
    public bool KeepRecords { get; init; }

    /// <summary>
    /// Keep up to <see cref="Reports.SummaryAggregator.MaxExactSamples"/> latencies exactly, for ab's percentile table
    /// (the ab format asks for them). Default false: every percentile comes from the histogram (3 significant digits).
    /// </summary>
    public bool ExactLatencies { get; init; }

    /// <summary>After Ctrl+C, how long in-flight requests may still finish. Default 2 s.</summary>
    public TimeSpan InterruptGrace { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>Open loop: a send whose lag behind its schedule exceeds this counts as late. Default 2 ms.</summary>
    public TimeSpan LateThreshold { get; init; } = TimeSpan.FromMilliseconds(2);

    /// <summary>True when requests follow a schedule (<see cref="Rate"/> set).</summary>
    public bool IsOpenLoop => Rate is not null || Stages.Count > 0;

    /// <summary>When sending stops: <see cref="Duration"/>, or the end of the stages.</summary>
    public TimeSpan? SendingLength => Stages.Count > 0 ? Stages.Aggregate(TimeSpan.Zero, (sum, s) => sum + s.Duration) : Duration;

    /// <summary>The open-loop schedule these options ask for.</summary>
    public Pacing.IPacer CreatePacer() => Stages.Count > 0
        ? new Pacing.StagedPacer(Rate ?? 0, Stages, Requests)
        : new Pacing.ConstantPacer(Rate ?? throw new InvalidOperationException("closed loop has no schedule"), Duration, Requests);

    /// <summary>Open loop: the mean rate planned (the rate itself, or the stages' planned hits over their length).</summary>
    public double? PlannedRate => Stages.Count > 0 && CreatePacer() is Pacing.StagedPacer p && p.Length > TimeSpan.Zero
        ? p.PlannedHits / p.Length.TotalSeconds
        : Rate;

    /// <summary>Checks every range; throws <see cref="TplabException"/> (usage) with one clear line.</summary>
    public LoadOptions Validate()
    {
        if (Url is null || !Url.IsAbsoluteUri || Url.Scheme is not ("http" or "https") || string.IsNullOrEmpty(Url.Host))
        {
            throw TplabException.Usage($"the URL must be an absolute http:// or https:// URL, got '{Url}'");
        }
        if (!AllowRemote && !IsLoopback(Url))
        {
            throw TplabException.Usage($"{Url.Host} is not loopback (127.0.0.0/8, ::1, localhost); pass --allow-remote to load another host");
        }
        foreach (var target in Targets)
        {
            CheckTarget(target);
        }
        Check(Concurrency is >= 1 and <= MaxConcurrency, $"--concurrency must be between 1 and {MaxConcurrency}, got {Concurrency}");
        Check(Requests is null or (>= 1 and <= MaxRequests), $"--requests must be between 1 and {MaxRequests}, got {Requests}");
        Check(Loops is null or (>= 1 and <= 100_000_000), $"--loops must be between 1 and 100000000, got {Loops}");
        CheckTime(Duration, "--duration", allowZero: false);
        CheckTime(RampUp, "--ramp-up", allowZero: true);
        CheckTime(Warmup, "--warmup", allowZero: true);
        CheckTime(Timeout, "--timeout", allowZero: false);
        foreach (var stage in Stages)
        {
            Check(stage.Rate >= 0 && stage.Rate <= MaxRate && double.IsFinite(stage.Rate), $"a --stage rate must be between 0 and {MaxRate.ToString(CultureInfo.InvariantCulture)} per second, got {stage}");
            Check(stage.Duration >= TimeSpan.Zero && stage.Duration <= MaxDuration, $"a --stage duration must be between 0 and 24h, got {stage}");
        }
        if (Stages.Count > 0)
        {
            Check(Duration is null, "--duration does not go with --stage: the stages' durations make the schedule");
            Check(SendingLength > TimeSpan.Zero && SendingLength <= MaxDuration, "the stages must last more than 0 and at most 24h in all");
            Check(CreatePacer() is not Pacing.StagedPacer { PlannedHits: < 1 }, "the stages plan no request (their rates over their durations add up to less than 1): nothing would be sent");
            Check(Rate is null or (>= 0 and <= MaxRate), $"--rate (the start rate of the stages) must be between 0 and {MaxRate.ToString(CultureInfo.InvariantCulture)}");
            Check(Loops is null && Think is null && RampUp == TimeSpan.Zero, "--loops, --think and --ramp-up are closed-loop options; they do not go with --stage");
            Check(MaxInFlight is null or (>= 1 and <= 1_000_000), $"--max-in-flight must be between 1 and 1000000, got {MaxInFlight}");
        }
        else if (Rate is { } rate)
        {
            Check(rate > 0 && rate <= MaxRate && double.IsFinite(rate), $"--rate must be above 0 and at most {MaxRate.ToString(CultureInfo.InvariantCulture)} per second, got {rate.ToString(CultureInfo.InvariantCulture)}");
            Check(Duration is not null || Requests is not null, "--rate needs --duration (or -n) to end the schedule");
            Check(Requests is not null || Duration is not { } length || rate * length.TotalSeconds >= 1,
                $"--rate {rate.ToString(CultureInfo.InvariantCulture)} for --duration {DurationText.Format(Duration ?? TimeSpan.Zero)} plans no request (rate × duration is below 1): nothing would be sent");
            Check(Loops is null && Think is null && RampUp == TimeSpan.Zero, "--loops, --think and --ramp-up are closed-loop options; they do not go with --rate");
            Check(MaxInFlight is null or (>= 1 and <= 1_000_000), $"--max-in-flight must be between 1 and 1000000, got {MaxInFlight}");
        }
        else
        {
            Check(Requests is not null || Duration is not null || Loops is not null, "say when to stop: give -n/--requests, --duration or --loops");
            Check(MaxInFlight is null, "--max-in-flight goes with --rate (open loop); closed loop is bounded by -c");
            Check(Requests is null || Requests >= Concurrency || Duration is not null, $"-n {Requests} is below -c {Concurrency}: some users would never send (ab refuses this too)");
        }
        Check(!AbortOnThreshold || Thresholds.Count > 0, "--abort-on-threshold needs at least one --threshold");
        if (Think is { } think)
        {
            Check(think.Min >= TimeSpan.Zero && think.Max >= think.Min && think.Max <= TimeSpan.FromHours(1), $"--think must be MIN..MAX with 0 <= MIN <= MAX <= 1h, got {think}");
        }
        return this;
    }

    /// <summary>True for 127.0.0.0/8, ::1 (and IPv4-mapped loopback) and the name localhost.</summary>
    public static bool IsLoopback(Uri url)
    {
        ArgumentNullException.ThrowIfNull(url);
        var host = url.IdnHost.Trim('[', ']');
        return string.Equals(host, "localhost", StringComparison.OrdinalIgnoreCase)
            || (IPAddress.TryParse(host, out var ip) && IPAddress.IsLoopback(ip.IsIPv4MappedToIPv6 ? ip.MapToIPv4() : ip));
    }

    private void CheckTarget(RequestTemplate target)
    {
        var url = target.Url;
        if (url is null || !url.IsAbsoluteUri || url.Scheme is not ("http" or "https") || string.IsNullOrEmpty(url.Host))
        {
            throw TplabException.Usage($"every target URL must be an absolute http:// or https:// URL, got '{url}'");
        }
        if (!AllowRemote && !IsLoopback(url))
        {
            throw TplabException.Usage($"{url.Host} is not loopback (127.0.0.0/8, ::1, localhost); pass --allow-remote to load another host");
        }
        Check(IsToken(target.Method), $"'{target.Method}' is not an HTTP method");
        Check(target.Weight is >= 1 and <= 10_000, $"a target's weight must be between 1 and 10000, got {target.Weight} for {target.Label}");
        foreach (var (name, value) in target.Headers)
        {
            Check(IsToken(name), $"'{name}' is not a valid header name");
            Check(!value.Any(c => c is '\r' or '\n' or '\0'), $"the value of header {name} holds a line break");
        }
    }

    /// <summary>An RFC 9110 token: what methods and header names are made of.</summary>
    public static bool IsToken(string? s) =>
        !string.IsNullOrEmpty(s) && s.All(c => c is > ' ' and < (char)127 && !"\"(),/:;<=>?@[\\]{}".Contains(c, StringComparison.Ordinal));

    private static void CheckTime(TimeSpan? value, string name, bool allowZero)
    {
        if (value is { } v)
        {
            Check(allowZero ? v >= TimeSpan.Zero : v > TimeSpan.Zero, $"{name} must be above 0, got {DurationText.Format(v)}");
            Check(v <= MaxDuration, $"{name} must be at most 24h, got {DurationText.Format(v)}");
        }
    }

    private static void Check(bool ok, string message)
    {
        if (!ok)
        {
            throw TplabException.Usage(message);
        }
    }
}

/// <summary>A uniform random pause between <see cref="Min"/> and <see cref="Max"/>.</summary>
public readonly record struct ThinkTime(TimeSpan Min, TimeSpan Max)
{
    /// <summary>Parses MIN..MAX (see <see cref="DurationText.ParseRange"/>); MIN alone means a fixed pause.</summary>
    public static ThinkTime Parse(string text, string option)
    {
        var (min, max) = DurationText.ParseRange(text, option);
        return new ThinkTime(min, max);
    }

    /// <summary>MIN..MAX as the CLI reads it.</summary>
    public override string ToString() => $"{DurationText.Format(Min)}..{DurationText.Format(Max)}";
}
