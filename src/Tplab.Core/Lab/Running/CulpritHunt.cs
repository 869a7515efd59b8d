using Tplab.Blocking;
using System.Globalization;
using Tplab.Common;
using Tplab.Common.Json;
using Tplab.Diagnose;
using Tplab.Watch.Verdicts;
using Tplab.Watch;

namespace Tplab.Lab.Running;

/// <summary>What the hunt found: the culprits, or why none is named (null when some are, or when the run ended it).</summary>
internal sealed record HuntResult(IReadOnlyList<Culprit> Culprits, string? NoneBecause)
{
    public static HuntResult None(string? because) => new([], because);
}

/// <summary>
/// Waits for the watch's first sample of work queued for want of threads or cores, then asks diagnose which code blocks the pool threads —
/// while the load is still running, so the blocked stacks are there to be seen.
/// </summary>
internal static class CulpritHunt
{
    private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(250);
    private static readonly TimeSpan Capture = TimeSpan.FromSeconds(2);

    /// <summary>
    /// Starts hunting: <paramref name="stopLooking"/> ends the wait for a starving sample (the load ended);
    /// <paramref name="abort"/> ends a capture already under way (Ctrl+C, deadline).
    /// </summary>
    public static Task<HuntResult> StartAsync(int processId, ThreadPoolWatch watch, CancellationToken stopLooking, CancellationToken abort) =>
        Task.Run(() => HuntAsync(processId, watch, stopLooking, abort), CancellationToken.None);

    private static async Task<HuntResult> HuntAsync(int processId, ThreadPoolWatch watch, CancellationToken stopLooking, CancellationToken ct)
    {
        try
        {
            // Any queue the watch does not call healthy: threads held (starving, lock contention), and also "CPU
            // saturated", which a starving pool on a busy machine can read as for a sample or two (one of its two threads
            // runnable, the machine's cores taken by others). The capture then says whether threads were blocked.
            while (watch.Latest?.Verdict is not (PoolVerdict.Starving or PoolVerdict.LockContention or PoolVerdict.CpuSaturated))
            {
                await Task.Delay(Poll, stopLooking).ConfigureAwait(false);
            }
            // The lab already watches this target; a second watch session would only change the counters' interval.
            var diagnosis = await BlockingDiagnoser.DiagnoseAsync(processId, new DiagnoseOptions { Duration = Capture, WatchPool = false }, ct).ConfigureAwait(false);
            return diagnosis.Culprits.Count == 0
                ? HuntResult.None($"the pool read {Words.Of(watch.Latest?.Verdict ?? PoolVerdict.Starving)} during the load, but a {Capture.TotalSeconds.ToString("0", CultureInfo.InvariantCulture)} s capture saw no pool thread blocked")
                : new([.. diagnosis.Culprits.Select(c => new Culprit(
                    c.BlockingCall.Name, c.UserFrame?.FullName ?? Tplab.Diagnose.Output.CulpritNames.NoApplicationFrame, c.Threads, c.Share, [.. c.Stack], c.Advice))], null);
        }
        catch (OperationCanceledException) when (stopLooking.IsCancellationRequested && !ct.IsCancellationRequested)
        {
            return HuntResult.None("the pool did not read starving (or short of cores) while the load ran");
        }
        catch (OperationCanceledException)
        {
            return HuntResult.None(null);
        }
        catch (TplabException e)
        {
            // The target may end or stop answering mid-capture; the scenario's figures stand without culprits.
            return HuntResult.None($"the capture failed: {e.Message}");
        }
    }
}
