using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;

namespace Tplab.Diagnose.Capture;

/// <summary>
/// A trace converted to .etlx, open for reading single events again by index: the request events' fields are read only
/// for the requests a diagnosis looks at, and copying every request event out of the stream instead (TraceEvent.Clone,
/// a native buffer and a finalizer each) took half the read of a busy service's trace. Disposing closes the log and
/// deletes the .etlx (scratch space); fields not read by then read as none.
/// </summary>
internal sealed class ConvertedTrace : IDisposable
{
    private readonly string _etlx;
    private TraceLog? _log;

    public ConvertedTrace(string etlx)
    {
        _etlx = etlx;
        _log = new TraceLog(etlx);
    }

    public TraceLog Log => _log ?? throw new ObjectDisposedException(nameof(ConvertedTrace));

    /// <summary>What <paramref name="read"/> makes of the event at <paramref name="index"/>; <paramref name="closed"/> once disposed.</summary>
    public T Read<T>(EventIndex index, Func<TraceEvent, T> read, T closed) =>
        _log is { } log ? read(log.GetEvent(index)) : closed;

    public void Dispose()
    {
        _log?.Dispose();
        _log = null;
        TraceReader.TryDelete(_etlx);
    }
}
