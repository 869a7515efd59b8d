using Tplab.Load.Engine;
using Tplab.Load.Requests;

namespace Tplab.Load.Summary;

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
