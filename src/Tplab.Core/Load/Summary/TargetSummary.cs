using Tplab.Load.Engine;
using Tplab.Load.Requests;

namespace Tplab.Load.Summary;

/// <summary>
/// The figures of one request template (one line of a targets file, one endpoint of a plan): vegeta's most asked-for
/// missing report (#587). Times in milliseconds.
/// </summary>
public sealed record TargetSummary
{
    /// <summary>Index in the load's targets.</summary>
    public required int Index { get; init; }

    /// <summary>The template's label: its name, or "METHOD /path?query".</summary>
    public required string Label { get; init; }

    /// <summary>The method sent.</summary>
    public required string Method { get; init; }

    /// <summary>The URL sent to.</summary>
    public required Uri Url { get; init; }

    /// <summary>Requests of this template that ended.</summary>
    public required long Requests { get; init; }

    /// <summary>Responses with status 200–399.</summary>
    public required long Succeeded { get; init; }

    /// <summary>Everything else.</summary>
    public long Failed => Requests - Succeeded;

    /// <summary>Requests that ended in a transport error.</summary>
    public required long TransportErrors { get; init; }

    /// <summary>From this template's first send to the end of its last request.</summary>
    public required double DurationSeconds { get; init; }

    /// <summary>Latency from the scheduled send (closed loop: from the send).</summary>
    public required LatencyStats LatencyMs { get; init; }

    /// <summary>Where this template's time went (waited for a thread, handler, rest), when the app sent the Server-Timing handler stamp; else null.</summary>
    public HandlerTiming? HandlerTiming { get; init; }

    /// <summary>Responses by status code (0: no response).</summary>
    public required IReadOnlyDictionary<int, long> StatusCodes { get; init; }

    /// <summary>Bytes received.</summary>
    public required long BytesIn { get; init; }

    /// <summary>Bytes sent.</summary>
    public required long BytesOut { get; init; }
}

/// <summary>Accumulates one template's figures; owned by <see cref="SummaryAggregator"/>.</summary>
internal sealed class TargetAccumulator(int index, RequestTemplate template)
{
    private readonly LatencyAccumulator _latency = new();
    private readonly HandlerTimingAccumulator _handlerTiming = new();
    private readonly StatusCounter _status = new();
    private long _requests, _succeeded, _transportErrors, _bytesIn, _bytesOut;
    private TimeSpan _firstStart = TimeSpan.MaxValue, _lastEnd = TimeSpan.MinValue;

    public void Add(in RequestRecord record)
    {
        _requests++;
        _latency.Add(record.Latency);
        _status.Add(record.Status);
        _bytesOut += record.BytesOut;
        _firstStart = record.Start < _firstStart ? record.Start : _firstStart;
        _lastEnd = record.End > _lastEnd ? record.End : _lastEnd;
        if (record.Error is not null)
        {
            _transportErrors++;
            return;
        }
        _succeeded += record.Succeeded ? 1 : 0;
        _bytesIn += record.BytesIn;
        _handlerTiming.Add(record);
    }

    public TargetSummary Complete() => new()
    {
        Index = index,
        Label = template.Label,
        Method = template.Method,
        Url = template.Url,
        Requests = _requests,
        Succeeded = _succeeded,
        TransportErrors = _transportErrors,
        DurationSeconds = _requests > 0 ? (_lastEnd - _firstStart).TotalSeconds : 0,
        LatencyMs = _latency.Complete(),
        HandlerTiming = _handlerTiming.Complete(),
        StatusCodes = _status.ToDictionary(),
        BytesIn = _bytesIn,
        BytesOut = _bytesOut,
    };
}

/// <summary>Counts by status code without a lookup per record: an array for 0–599, a dictionary for anything odd.</summary>
internal sealed class StatusCounter
{
    private readonly long[] _common = new long[600];
    private Dictionary<int, long>? _other;

    public void Add(int status)
    {
        if ((uint)status < (uint)_common.Length)
        {
            _common[status]++;
            return;
        }
        _other ??= [];
        _other[status] = _other.GetValueOrDefault(status) + 1;
    }

    public SortedDictionary<int, long> ToDictionary()
    {
        var codes = new SortedDictionary<int, long>();
        for (var i = 0; i < _common.Length; i++)
        {
            if (_common[i] != 0)
            {
                codes[i] = _common[i];
            }
        }
        foreach (var (code, count) in _other ?? [])
        {
            codes[code] = count;
        }
        return codes;
    }
}
