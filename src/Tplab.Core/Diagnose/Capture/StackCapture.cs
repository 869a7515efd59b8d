using System.Diagnostics.Tracing;
using System.Globalization;
using Microsoft.Diagnostics.NETCore.Client;
using Tplab.Common;
using Tplab.Processes;
using Tplab.Runtime;

namespace Tplab.Diagnose.Capture;

/// <summary>The stacks of one capture and how long the session really recorded.</summary>
public sealed record StackCaptureResult(CapturedStacks Stacks, TimeSpan Recorded)
{
    /// <summary>Why <c>--keep-trace</c> could not be written after the capture, in one line; null when kept or not asked.</summary>
    public string? KeepFailed { get; init; }

    /// <summary>From the session's stop to the end of the runtime's rundown (method names and IL maps).</summary>
    public TimeSpan Rundown { get; init; }

    /// <summary>Reading the trace: TraceLog's conversion, symbols from the rundown, stacks and events.</summary>
    public TimeSpan Read { get; init; }
}

/// <summary>
/// One EventPipe session to the target: the sample profiler (every thread's stack about once a millisecond) and the
/// runtime's WaitHandleWait events with stacks (.NET 9+), converted by TraceLog as the stream arrives
/// (<see cref="LiveConversion"/>) and read once the runtime's rundown at the session's end has named every method. The
/// rundown-at-the-end route, as dotnet-stack and dotnet-trace take, rather than TraceLog's real-time mode: that one names
/// methods from a second session's rundown at the start and keeps the IL maps to itself, and reads the session's stream
/// itself, so the raw trace could not be kept beside it.
/// </summary>
public static class StackCapture
{
    /// <summary>
    /// Records for <see cref="DiagnoseOptions.Duration"/> over <paramref name="connection"/>; throws a
    /// <see cref="TplabException"/> (exit 6 or 7) when the target refuses or exits. With <paramref name="keep"/> (reserved
    /// before the capture) the raw .nettrace is kept there, written whole; a failure then is reported, not thrown.
    /// </summary>
    public static async Task<StackCaptureResult> RunAsync(RuntimeConnection connection, DiagnoseOptions options, CancellationToken cancellationToken, KeptTrace? keep = null)
    {
        var processId = connection.ProcessId;
        // The raw stream is written to a file only to be kept: the reading goes from the stream.
        var path = keep is null ? null : ScratchFolder.File($"tplab-diagnose-{processId}", ".nettrace");
        try
        {
            await using var conversion = new LiveConversion();
            var (recorded, rundown) = await RecordAsync(connection, conversion, path, options, cancellationToken).ConfigureAwait(false);
            var reading = options.Time.GetTimestamp();
            string etlx;
            try
            {
                etlx = await conversion.CompleteAsync().ConfigureAwait(false);
            }
            catch (Exception e) when (e is EndOfStreamException or IOException or FormatException)
            {
                // The stream ended before a whole trace (a connection closed after the session's stop was answered):
                // TraceEvent says "Read past end of stream" with a FormatException.
                throw Gone(processId, recorded, e);
            }
            var stacks = TraceReader.ReadConverted(etlx, conversion.Requests);
            var read = options.Time.GetElapsedTime(reading);
            return new StackCaptureResult(stacks, recorded) { KeepFailed = path is null ? null : keep?.Keep(path), Rundown = rundown, Read = read };
        }
        finally
        {
            if (path is not null)
            {
                TraceReader.TryDelete(path);
            }
        }
    }

    private static async Task<(TimeSpan Recorded, TimeSpan Rundown)> RecordAsync(RuntimeConnection connection, LiveConversion conversion, string? path, DiagnoseOptions options, CancellationToken cancellationToken)
    {
        var processId = connection.ProcessId;
        var config = new EventPipeSessionConfiguration(DiagnoseProviders.All, 256, requestRundown: true, requestStackwalk: true);
        using var session = await connection.StartSessionAsync(config, cancellationToken).ConfigureAwait(false);
        var time = options.Time;
        var started = time.GetTimestamp();
        await using var file = path is null ? null : new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 16, useAsync: true);
        // The copy ends early only if the target goes away: the session stream closes with it.
        var copy = CopyAsync(session.EventStream, conversion, file, cancellationToken);
        var elapsed = Task.Delay(options.Duration, time, cancellationToken);
        if (await Task.WhenAny(copy, elapsed).ConfigureAwait(false) == copy)
        {
            throw Gone(processId, time.GetElapsedTime(started), copy.Exception?.InnerException);
        }
        await elapsed.ConfigureAwait(false);
        var recorded = time.GetElapsedTime(started);
        try
        {
            await session.StopAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (Exception e) when (e is ServerNotAvailableException or EndOfStreamException or IOException or TimeoutException)
        {
            throw Gone(processId, recorded, e);
        }
        // After Stop the runtime writes the rundown (method names), then closes the stream.
        var rundown = Task.Delay(options.RundownTimeout, time, cancellationToken);
        if (await Task.WhenAny(copy, rundown).ConfigureAwait(false) != copy)
        {
            throw new TplabException(ExitCodes.Failed, $"process {processId} did not finish its rundown (method names) within {options.RundownTimeout.TotalSeconds.ToString("0", CultureInfo.InvariantCulture)} s");
        }
        await copy.ConfigureAwait(false);
        return (recorded, time.GetElapsedTime(started) - recorded);
    }

    // The session's bytes to the conversion and, when the trace is to be kept, to its file.
    private static async Task CopyAsync(Stream from, LiveConversion conversion, FileStream? file, CancellationToken cancellationToken)
    {
        var buffer = new byte[1 << 16];
        int read;
        while ((read = await from.ReadAsync(buffer, cancellationToken).ConfigureAwait(false)) > 0)
        {
            if (file is not null)
            {
                await file.WriteAsync(buffer.AsMemory(0, read), cancellationToken).ConfigureAwait(false);
            }
            await conversion.WriteAsync(buffer.AsMemory(0, read), cancellationToken).ConfigureAwait(false);
        }
    }

    private static TplabException Gone(int processId, TimeSpan after, Exception? inner) =>
        AttachErrors.Gone(processId, $"during the capture (after {after.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture)} s); nothing to diagnose", inner);
}
