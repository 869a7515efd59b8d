using Tplab.Load.Engine;
using Tplab.Load.Summary;

namespace Tplab.Load;

/// <summary>
/// Where every finished request goes. It is folded into the summary at once, on the thread that finished it (an
/// event loop, or a pool thread for HttpClient), under one lock; the records themselves are kept for the runner's
/// beat only when somebody asked for them (a per-request sink or kept records). A hand-off queue and a reader waking
/// to empty it cost a pinned generator about 5% of its CPU per request (perf, BENCHMARKS.md), for records nobody read.
/// </summary>
internal sealed class RecordCollector(SummaryAggregator aggregator, bool keepRecords)
{
    private readonly Lock _gate = new();
    private List<RequestRecord>? _pending = keepRecords ? [] : null;

    /// <summary>True when records are kept for <see cref="TakePending"/>.</summary>
    public bool KeepsRecords => _pending is not null;

    /// <summary>One finished request, from any thread.</summary>
    public void Add(in RequestRecord record)
    {
        lock (_gate)
        {
            aggregator.Add(record);
            _pending?.Add(record);
        }
    }

    /// <summary>
    /// The records added since the last call, in completion order; <paramref name="spare"/> (emptied by the caller)
    /// takes their place, so two lists serve a whole run.
    /// </summary>
    public List<RequestRecord> TakePending(List<RequestRecord> spare)
    {
        lock (_gate)
        {
            if (_pending is not { } taken)
            {
                return spare;
            }
            _pending = spare;
            return taken;
        }
    }

    /// <summary>Reads the aggregator while no record is being added (progress and thresholds during the run).</summary>
    public T Read<T>(Func<SummaryAggregator, T> read)
    {
        lock (_gate)
        {
            return read(aggregator);
        }
    }
}
