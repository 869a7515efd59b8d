using Tplab.Load.Engine;

namespace Tplab.Load.Summary;

/// <summary>
/// Folds request records into a <see cref="LoadSummary"/>: <see cref="Add"/> one record at a time,
/// <see cref="Complete"/> once. Single-threaded: the runner owns it and feeds it from the results stream.
/// </summary>
public sealed class SummaryAggregator
{
    /// <summary>Most latencies kept exactly for ab's percentile table (as hey keeps at most a million).</summary>
    public const int MaxExactSamples = 1_000_000;

    private readonly LoadOptions _options;
    private readonly LatencyAccumulator _latency = new();
    private readonly LatencyAccumulator _service = new();
    private readonly LatencyAccumulator _waiting = new();
    private readonly LatencyAccumulator _lag = new();
    private readonly StatusCounter _statusCodes = new();
    private readonly HandlerTimingAccumulator _handlerTiming = new();
    private readonly TargetAccumulator[] _targets;
    private readonly Dictionary<string, long> _errors = new(StringComparer.Ordinal);
    private List<double>? _exact;
    private long _requests, _succeeded, _responded, _lengthMismatches, _late, _bytesIn, _bodyBytes, _bytesOut;
    private long? _documentLength;
    private TimeSpan _firstStart = TimeSpan.MaxValue, _lastStart = TimeSpan.MinValue, _lastEnd = TimeSpan.MinValue;
    private double _serviceSeconds;
    private bool _completed;

    /// <summary>An aggregator for a run of <paramref name="options"/>.</summary>
    public SummaryAggregator(LoadOptions options)
    {
        _options = options ?? throw new ArgumentNullException(nameof(options));
        _targets = [.. options.EffectiveTargets.Select((t, i) => new TargetAccumulator(i, t))];
        _exact = options.ExactLatencies ? [] : null;
    }

    /// <summary>Live 99th percentile of latency so far, in milliseconds (for progress).</summary>
    public double CurrentP99Ms => _latency.Histogram.ValueAtPercentile(99) / 1000.0;

    /// <summary>Live latency statistics so far (for thresholds checked during the run).</summary>
    public LatencyStats CurrentLatency => _latency.Complete();

    /// <summary>Requests so far.</summary>
    public long CurrentRequests => _requests;

    /// <summary>Failed requests so far.</summary>
    public long CurrentFailed => _requests - _succeeded;

    /// <summary>Adds one request.</summary>
    public void Add(in RequestRecord record)
    {
        ObjectDisposedException.ThrowIf(_completed, this);
        _requests++;
        _latency.Add(record.Latency);
        if (_options.IsOpenLoop)
        {
            // In closed loop service time is latency (the send is the schedule): one histogram serves both.
            _service.Add(record.ServiceTime);
        }
        // One template: its figures are the totals, taken at the end (one histogram fewer per request).
        if (_targets.Length > 1 && (uint)record.Target < (uint)_targets.Length)
        {
            _targets[record.Target].Add(record);
        }
        _serviceSeconds += record.ServiceTime.TotalSeconds;
        if (_exact is not null)
        {
            _exact.Add(record.Latency.TotalMilliseconds);
            if (_exact.Count > MaxExactSamples)
            {
                _exact = null;
            }
        }
        if (_options.IsOpenLoop)
        {
            _lag.Add(record.SendLag);
            if (record.SendLag > _options.LateThreshold)
            {
                _late++;
            }
        }
        _firstStart = record.Start < _firstStart ? record.Start : _firstStart;
        _lastStart = record.Start > _lastStart ? record.Start : _lastStart;
        _lastEnd = record.End > _lastEnd ? record.End : _lastEnd;
        _bytesOut += record.BytesOut;
        _statusCodes.Add(record.Status);
        if (record.Error is { } error)
        {
            _errors[error] = _errors.GetValueOrDefault(error) + 1;
            return;
        }
        _responded++;
        _handlerTiming.Add(record);
        _succeeded += record.Succeeded ? 1 : 0;
        _waiting.Add(record.Waiting);
        _bytesIn += record.BytesIn;
        _bodyBytes += record.BodyBytesIn;
        _documentLength ??= record.BodyBytesIn;
        _lengthMismatches += record.BodyBytesIn != _documentLength ? 1 : 0;
    }

    private TargetSummary SingleTarget()
    {
        var template = _options.EffectiveTargets[0];
        return new TargetSummary
        {
            Index = 0,
            Label = template.Label,
            Method = template.Method,
            Url = template.Url,
            Requests = _requests,
            Succeeded = _succeeded,
            TransportErrors = _requests - _responded,
            DurationSeconds = _requests > 0 ? (_lastEnd - _firstStart).TotalSeconds : 0,
            LatencyMs = _latency.Complete(),
            HandlerTiming = _handlerTiming.Complete(),
            StatusCodes = _statusCodes.ToDictionary(),
            BytesIn = _bytesIn,
            BytesOut = _bytesOut,
        };
    }

    /// <summary>Finishes the summary; the aggregator takes no more records after this.</summary>
    public LoadSummary Complete(bool interrupted, string? serverSoftware, string engine = "httpclient")
    {
        ObjectDisposedException.ThrowIf(_completed, this);
        _completed = true;
        var any = _requests > 0;
        var sending = any ? (_lastStart - _firstStart).TotalSeconds : 0;
        _exact?.Sort();
        return new LoadSummary
        {
            Url = _options.Url,
            Model = _options.IsOpenLoop ? "open" : "closed",
            Engine = engine,
            Concurrency = _options.IsOpenLoop ? 1 : _options.Concurrency,
            KeepAlive = _options.KeepAlive,
            Interrupted = interrupted,
            Requests = _requests,
            Succeeded = _succeeded,
            Responded = _responded,
            LengthMismatches = _lengthMismatches,
            DurationSeconds = any ? (_lastEnd - _firstStart).TotalSeconds : 0,
            SendingSeconds = sending,
            LatencyMs = _latency.Complete(),
            ServiceTimeMs = _options.IsOpenLoop ? _service.Complete() : _latency.Complete(),
            Targets = _targets.Length > 1 ? [.. _targets.Select(t => t.Complete())] : [SingleTarget()],
            WaitingMs = _waiting.Complete(),
            SendLagMs = _lag.Complete(),
            HandlerTiming = _handlerTiming.Complete(),
            TotalServiceSeconds = _serviceSeconds,
            TargetRate = _options.PlannedRate,
            // Counted from the schedule's origin (hit 0 is due at offset 0), so a late first send cannot flatter the rate.
            AchievedRate = _options.IsOpenLoop && _requests > 1 && _lastStart > TimeSpan.Zero ? (_requests - 1) / _lastStart.TotalSeconds : null,
            LateSends = _options.IsOpenLoop ? _late : null,
            LateThresholdMs = _options.IsOpenLoop ? _options.LateThreshold.TotalMilliseconds : null,
            StatusCodes = _statusCodes.ToDictionary(),
            Errors = [.. _errors.OrderByDescending(e => e.Value).ThenBy(e => e.Key, StringComparer.Ordinal).Select(e => new ErrorCount(e.Key, e.Value))],
            BytesIn = _bytesIn,
            BodyBytesIn = _bodyBytes,
            BytesOut = _bytesOut,
            DocumentLength = _documentLength,
            ServerSoftware = serverSoftware,
            LatencyHistogramMicros = _latency.Histogram.Copy(),
            SortedLatenciesMs = _exact?.AsReadOnly(),
        };
    }
}
