using Tplab.Blocking;
using Tplab.Common;
using Tplab.Diagnose;
using Tplab.Watch.Verdicts;
using Tplab.Watch;

namespace Tplab.Lab.Running;

/// <summary>
/// Waits for the watch's first starving sample, then asks diagnose which code blocks the pool threads —
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
    public static Task<IReadOnlyList<Culprit>> StartAsync(int processId, ThreadPoolWatch watch, CancellationToken stopLooking, CancellationToken abort) =>
        Task.Run(() => HuntAsync(processId, watch, stopLooking, abort), CancellationToken.None);

    private static async Task<IReadOnlyList<Culprit>> HuntAsync(int processId, ThreadPoolWatch watch, CancellationToken stopLooking, CancellationToken ct)
    {
        try
        {
            while (watch.Latest?.Verdict.ThreadsHeld() != true)
            {
                await Task.Delay(Poll, stopLooking).ConfigureAwait(false);
            }
            // The lab already watches this target; a second watch session would only change the counters' interval.
            var diagnosis = await BlockingDiagnoser.DiagnoseAsync(processId, new DiagnoseOptions { Duration = Capture, WatchPool = false }, ct).ConfigureAwait(false);
            return [.. diagnosis.Culprits.Select(c => new Culprit(
                c.BlockingCall.Name, c.UserFrame?.FullName ?? Tplab.Diagnose.Output.CulpritNames.NoApplicationFrame, c.Threads, c.Share, [.. c.Stack], c.Advice))];
        }
        catch (OperationCanceledException)
        {
            return [];
        }
        catch (TplabException)
        {
            // The target may end or stop answering mid-capture; the scenario's figures stand without culprits.
            return [];
        }
    }
}
