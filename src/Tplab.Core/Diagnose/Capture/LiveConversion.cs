using System.IO.Pipelines;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;
using Tplab.Diagnose.Requests;

namespace Tplab.Diagnose.Capture;

/// <summary>
/// TraceLog's conversion of the session's stream to an .etlx, run on its own thread while the session records instead
/// of after it: the same conversion as of a finished .nettrace (the rundown at the end of the session names every method,
/// jitted during the capture or before), fed through a pipe as the bytes arrive, so only its tail — the rundown — is left
/// when the capture ends. On a machine the target keeps busy the conversion took 1.5–2.5 s of wall time after the capture.
/// The pipe never holds the session back (no writer threshold): a reader that falls behind costs memory, about the
/// trace's size, never events the runtime would drop on a full buffer.
/// </summary>
internal sealed class LiveConversion : IAsyncDisposable
{
    private readonly Pipe _pipe = new(new PipeOptions(pauseWriterThreshold: 0, resumeWriterThreshold: 0, useSynchronizationContext: false));
    private readonly Task _converting;
    private readonly List<RequestEvent> _requests = [];
    private bool _completed;

    public LiveConversion()
    {
        EtlxPath = ScratchFolder.File("tplab", ".etlx");
        // A long-running thread: TraceLog reads the pipe synchronously and would hold a pool thread for the whole capture.
        _converting = Task.Factory.StartNew(Convert, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
    }

    /// <summary>Where the .etlx is written (the scratch folder).</summary>
    public string EtlxPath { get; }

    /// <summary>Hands the next bytes of the session's stream to the conversion (copied; the buffer can be reused).</summary>
    public async ValueTask WriteAsync(ReadOnlyMemory<byte> bytes, CancellationToken cancellationToken) =>
        await _pipe.Writer.WriteAsync(bytes, cancellationToken).ConfigureAwait(false);

    /// <summary>The stream has ended: waits for the conversion to finish and returns the .etlx; TraceEvent's exceptions pass through.</summary>
    public async Task<string> CompleteAsync()
    {
        _completed = true;
        await _pipe.Writer.CompleteAsync().ConfigureAwait(false);
        try
        {
            await _converting.ConfigureAwait(false);
        }
        catch
        {
            TraceReader.TryDelete(EtlxPath);
            throw;
        }
        return EtlxPath;
    }

    /// <summary>Stops a conversion not completed (the capture failed) and deletes what it wrote.</summary>
    public async ValueTask DisposeAsync()
    {
        if (!_completed)
        {
            _completed = true;
            await _pipe.Writer.CompleteAsync(new OperationCanceledException("the capture ended early")).ConfigureAwait(false);
            try
            {
                await _converting.ConfigureAwait(false);
            }
            catch (Exception)
            {
                // The stream was cut: nothing of it is read.
            }
            TraceReader.TryDelete(EtlxPath);
        }
    }

    /// <summary>ASP.NET Core's request events, read from the stream as it was converted; complete once <see cref="CompleteAsync"/> returned.</summary>
    public IReadOnlyList<RequestEvent> Requests => _requests;

    private void Convert()
    {
        using var stream = _pipe.Reader.AsStream();
        using var source = new EventPipeEventSource(stream);
        // Read here rather than from the .etlx after the capture: a busy service raises hundreds of thousands, and each
        // kept one is a copy of its event. Through the dynamic parser: its events come with their self-described fields.
        source.Dynamic.All += e =>
        {
            if (e.ProviderName is DiagnoseProviders.Hosting or DiagnoseProviders.DiagnosticSource && RequestEvents.Of(e, e.TimeStampRelativeMSec) is { } request)
            {
                _requests.Add(request);
            }
        };
        TraceLog.CreateFromEventTraceLogFile(source, EtlxPath, TraceReader.ConversionOptions());
    }
}
