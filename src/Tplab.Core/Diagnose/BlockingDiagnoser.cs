using Tplab.Common;
using Tplab.Diagnose.Capture;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Requests;
using Tplab.Diagnose.Stacks;
using Tplab.Processes;
using Tplab.Runtime;
using Tplab.Watch;
using Tplab.Watch.Verdicts;

namespace Tplab.Diagnose;

/// <summary>
/// Names the code that blocks the thread-pool threads of a running .NET 8+ process of the same user: attaches
/// over EventPipe, records blocked pool-thread stacks, attributes them to application methods and ranks them.
/// </summary>
public static class BlockingDiagnoser
{
    /// <summary>The first runtime whose WaitHandleWait events carry stacks (dotnet/runtime PR 94737).</summary>
    public static readonly Version WaitEventsSince = new(9, 0);

    /// <summary>Diagnoses <paramref name="processId"/>; throws a <see cref="Common.TplabException"/> with exit 2, 5, 6 or 7 when it cannot.</summary>
    public static async Task<Diagnosis> DiagnoseAsync(int processId, DiagnoseOptions options, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validated();
        var started = options.Time.GetTimestamp();
        // A path that cannot be written is said now, in one line, not after the capture.
        using var keep = options.KeepTrace is { } keepPath ? KeptTrace.Reserve(keepPath) : null;
        await using var connection = await RuntimeConnection.AttachAsync(processId, cancellationToken).ConfigureAwait(false);
        var target = connection.Facts!;
        // The pool's own view (threads, queue, injections by reason, verdict) comes from the watch, in a second
        // session over the same window, so the culprits can be read against what the pool was going through.
        var (watch, unwatched) = await StartWatchAsync(processId, options, cancellationToken).ConfigureAwait(false);
        StackCaptureResult capture;
        PoolTimeline? pool = null;
        try
        {
            capture = await StackCapture.RunAsync(connection, options, cancellationToken, keep).ConfigureAwait(false);
        }
        finally
        {
            if (watch is not null)
            {
                pool = await StopWatchAsync(watch).ConfigureAwait(false);
                unwatched ??= pool is null ? "the pool watch failed to stop" : null;
            }
        }
        var analysing = options.Time.GetTimestamp();
        var diagnosis = FrameworkLockGate.Apply(Analyse(target, capture, options, TimeSpan.Zero), pool);
        var analysed = options.Time.GetElapsedTime(analysing);
        // The pool watch sees the CPU the process gets (a share of the cores on a busy machine), which the stacks cannot:
        // with no blocking culprit and the watch calling the pool CPU-saturated, the hot methods are the answer.
        if (diagnosis.Verdict == DiagnosisVerdict.Clear && pool?.Verdict == PoolVerdict.CpuSaturated && diagnosis.HotMethods.Count > 0)
        {
            diagnosis = diagnosis with { Verdict = DiagnosisVerdict.CpuBound };
        }
        // The answer time is the user's wait: attach, record, rundown, read, analyse, all of it.
        var answer = options.Time.GetElapsedTime(started);
        return diagnosis with
        {
            Pool = pool,
            PoolUnavailable = unwatched,
            KeepTraceFailed = capture.KeepFailed,
            AnswerTime = answer,
            Phases = new AnswerPhases(capture.Recorded, capture.Rundown, capture.Read, analysed),
        };
    }

    private static async Task<(ThreadPoolWatch? Watch, string? Why)> StartWatchAsync(int processId, DiagnoseOptions options, CancellationToken cancellationToken)
    {
        if (!options.WatchPool)
        {
            return (null, "not watched (WatchPool off)");
        }
        try
        {
            var watch = await ThreadPoolWatch.StartAsync(processId, new WatchOptions { Interval = options.PoolInterval, Time = options.Time, Delay = new() { Mode = Tplab.Watch.Delay.DelayMode.Off } }, cancellationToken).ConfigureAwait(false);
            return (watch, null);
        }
        catch (TplabException e) when (e.ExitCode is not ExitCodes.Usage)
        {
            // The stacks are the point of diagnose; a pool view that cannot start is reported, not fatal.
            return (null, e.Message);
        }
    }

    private static async Task<PoolTimeline?> StopWatchAsync(ThreadPoolWatch watch)
    {
        // The watch must never hide the capture's own outcome (for example "exited during the capture", exit 7):
        // whatever stopping it throws, the diagnosis goes on without the pool view.
        try
        {
            return await watch.StopAsync().ConfigureAwait(false);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            return null;
        }
        finally
        {
            try
            {
                await watch.DisposeAsync().ConfigureAwait(false);
            }
            catch (Exception e) when (e is not OperationCanceledException)
            {
                // Already reported as a missing pool view above.
            }
        }
    }

    /// <summary>Pool threads running application code on average, from CPU samples, above which a capture with no blocking is called CPU-bound.</summary>
    public const double CpuBoundThreads = 0.8;

    /// <summary>The diagnosis of captured stacks; separate from the capture so it can be tested on recorded or hand-built stacks.</summary>
    public static Diagnosis Analyse(TargetFacts target, StackCaptureResult capture, DiagnoseOptions options, TimeSpan answerTime)
    {
        var stacks = capture.Stacks;
        var library = new LibraryCode(options.LibraryPrefixes);
        var requests = new RequestIndex(stacks.Requests);
        using var code = ApplicationCode.Load(stacks.Modules, library);
        using var lines = new SourceLines(code.ModulePaths);
        var grouper = new BlockedStackGrouper(new StackClassifier(library), options.StackFrames, new InlineIndex(stacks.Inlinings, library), code, lines);
        var cpu = new CpuProfile(library);
        var interval = HeldTime.SamplingIntervalMs(stacks.Samples);
        var seen = new HashSet<int>();
        foreach (var sample in stacks.Samples)
        {
            if (seen.Add(sample.ThreadId))
            {
                grouper.SeeThread(sample.ThreadId, sample.Frames);
            }
            if (!sample.External)
            {
                cpu.Add(sample.Frames, interval);
            }
        }
        foreach (var observation in HeldTime.Observe(stacks.Samples, stacks.Waits, stacks.StartMs, stacks.EndMs, interval))
        {
            // The request is looked up where the wait began: that is when its thread was last seen serving it.
            grouper.Add(observation, requests.Find(observation.ThreadId, observation.StartMs + observation.HeldMs, observation.Frames, observation.Activity));
        }
        var (groups, summary) = grouper.Complete(capture.Recorded, options.MinimumThreads);
        var (busy, hot) = cpu.Complete(capture.Recorded.TotalMilliseconds);
        var evidence = new StackEvidence(
            stacks.Samples.Count,
            stacks.WaitStartEvents,
            interval,
            summary.PoolThreadsSeen,
            summary.BlockedThreads,
            FallbackOf(target.RuntimeVersion, stacks.WaitStartEvents))
        {
            ContentionEvents = stacks.ContentionEvents,
            Requests = requests.Count,
            BusyThreads = busy,
        };
        var verdict = VerdictOf(groups.Count, busy);
        return new Diagnosis(
            target.ProcessId,
            target.Name,
            target.RuntimeVersion,
            verdict,
            groups,
            capture.Recorded,
            answerTime,
            evidence)
        {
            HotMethods = hot,
            SourceRoot = groups.Any(g => g.Chain.Any(h => h.At is not null)) ? lines.Root : null,
            LinesMissing = lines.Note,
        };
    }

    /// <summary>Blocked with culprits; else CPU-bound when enough pool threads run application code; else clear.</summary>
    internal static DiagnosisVerdict VerdictOf(int culprits, double busyThreads) =>
        culprits > 0 ? DiagnosisVerdict.Blocked : busyThreads >= CpuBoundThreads ? DiagnosisVerdict.CpuBound : DiagnosisVerdict.Clear;

    /// <summary>What the diagnosis relies on when the runtime raises no wait events; null when it has them.</summary>
    public static string? FallbackOf(Version? runtime, int waitEvents) => runtime switch
    {
        { } v when v < WaitEventsSince =>
            $".NET {v.ToString(2)} raises no WaitHandleWait events (they came in .NET 9): blocked threads were found from sample-profiler stacks alone, so waits shorter than a sampling interval are missed",
        null when waitEvents == 0 =>
            "runtime version unknown and no WaitHandleWait events seen: blocked threads were found from sample-profiler stacks alone",
        _ => null,
    };
}
