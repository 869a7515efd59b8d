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
}
