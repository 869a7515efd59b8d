using Tplab.Load.Engine;

namespace Tplab.Load;

/// <summary>
/// Receives every request record while the run goes on (per-request CSV streams to its file through one), so a
/// long run keeps no records in memory. Called from one thread at a time, in completion order.
/// </summary>
public interface IRecordSink
{
    /// <summary>Before the first record: the run's wall-clock start, which turns record offsets into timestamps.</summary>
    void Begin(DateTimeOffset startedAt);

    /// <summary>One finished request.</summary>
    void Write(in RequestRecord record);

    /// <summary>
    /// False when the sink writes nothing per request (a report with no csv or hlog among its outputs): the runner
    /// then keeps no records for it and calls <see cref="Write"/> never.
    /// </summary>
    bool WantsRecords => true;
}
