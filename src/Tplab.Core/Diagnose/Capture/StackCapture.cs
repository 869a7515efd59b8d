using System.Diagnostics.Tracing;
using System.Globalization;
using System.Net.Sockets;
using Microsoft.Diagnostics.NETCore.Client;
using Tplab.Common;

namespace Tplab.Diagnose.Capture;

/// <summary>The stacks of one capture and how long the session really recorded.</summary>
public sealed record StackCaptureResult(CapturedStacks Stacks, TimeSpan Recorded);

/// <summary>
/// One EventPipe session to the target: the sample profiler (every thread's stack about once a millisecond) and the
/// runtime's WaitHandleWait events with stacks (.NET 9+), written to a temporary .nettrace, then read once the
/// runtime's rundown has named every method. The file route, as dotnet-stack and dotnet-trace do, rather than a live
/// TraceLog: the rundown at the end of the session names methods jitted during the capture too, with one session.
/// </summary>
public static class StackCapture
{
    /// <summary>Records for <see cref="DiagnoseOptions.Duration"/>; throws a <see cref="TplabException"/> (exit 6 or 7) when the target refuses or exits.</summary>
    public static async Task<StackCaptureResult> RunAsync(int processId, DiagnoseOptions options, CancellationToken cancellationToken)
    {
        var path = Path.Combine(Path.GetTempPath(), $"tplab-diagnose-{processId}-{Guid.NewGuid():N}.nettrace");
        try
        {
            var recorded = await RecordAsync(processId, path, options, cancellationToken).ConfigureAwait(false);
            return new StackCaptureResult(TraceReader.Read(path), recorded);
        }
        finally
        {
            TraceReader.TryDelete(path);
        }
    }

    private static async Task<TimeSpan> RecordAsync(int processId, string path, DiagnoseOptions options, CancellationToken cancellationToken)
    {
        var client = new DiagnosticsClient(processId);
        var config = new EventPipeSessionConfiguration(DiagnoseProviders.All, 256, requestRundown: true, requestStackwalk: true);
        EventPipeSession session;
        try
        {
            session = await client.StartEventPipeSessionAsync(config, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception e) when (IsPermission(e))
        {
            throw new TplabException(ExitCodes.PermissionDenied, $"permission denied on the diagnostic socket of process {processId}: run tplab as the user that owns it", e);
        }
        catch (Exception e) when (e is ServerNotAvailableException or EndOfStreamException or IOException)
        {
            throw await GoneAsync(processId, TimeSpan.Zero, e);
        }

        using (session)
        {
            var time = options.Time;
            var started = time.GetTimestamp();
            await using var file = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 16, useAsync: true);
            // The copy ends early only if the target goes away: the session stream closes with it.
            var copy = session.EventStream.CopyToAsync(file, cancellationToken);
            var elapsed = Task.Delay(options.Duration, time, cancellationToken);
            if (await Task.WhenAny(copy, elapsed).ConfigureAwait(false) == copy)
            {
                throw await GoneAsync(processId, time.GetElapsedTime(started), copy.Exception?.InnerException);
            }
            await elapsed.ConfigureAwait(false);
            var recorded = time.GetElapsedTime(started);
            try
            {
                await session.StopAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (Exception e) when (e is ServerNotAvailableException or EndOfStreamException or IOException or TimeoutException)
            {
                throw await GoneAsync(processId, recorded, e);
            }
            // After Stop the runtime writes the rundown (method names), then closes the stream.
            var rundown = Task.Delay(options.RundownTimeout, time, cancellationToken);
            if (await Task.WhenAny(copy, rundown).ConfigureAwait(false) != copy)
            {
                throw new TplabException(ExitCodes.Failed, $"process {processId} did not finish its rundown (method names) within {options.RundownTimeout.TotalSeconds.ToString("0", CultureInfo.InvariantCulture)} s");
            }
            await copy.ConfigureAwait(false);
            return recorded;
        }
    }

    private static async Task<TplabException> GoneAsync(int processId, TimeSpan after, Exception? inner)
    {
        // A graceful shutdown (SIGTERM, host stopping) closes the session first and exits a moment later:
        // give it that moment before calling it "closed its connection" rather than "exited".
        for (var waited = 0; waited < 50 && TargetProbe.IsAlive(processId); waited++)
        {
            await Task.Delay(100).ConfigureAwait(false);
        }
        return Gone(processId, after, inner);
    }

    private static TplabException Gone(int processId, TimeSpan after, Exception? inner) =>
        TargetProbe.IsAlive(processId)
            ? new TplabException(ExitCodes.NoProcess, $"process {processId} closed its diagnostic connection ({inner?.Message ?? "stream ended"})", inner)
            : new TplabException(ExitCodes.ProcessExited, $"process {processId} exited during the capture (after {after.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture)} s); nothing to diagnose", inner);

    private static bool IsPermission(Exception e) =>
        e is UnauthorizedAccessException
        || (e is SocketException s && s.SocketErrorCode == SocketError.AccessDenied)
        || (e.InnerException is { } inner && IsPermission(inner));
}
