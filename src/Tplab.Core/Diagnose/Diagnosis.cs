using Tplab.Watch;

namespace Tplab.Diagnose;

/// <summary>The diagnosis in one word.</summary>
public enum DiagnosisVerdict
{
    /// <summary>No pool thread was held by a blocking call long enough to report.</summary>
    Clear,

    /// <summary>At least one culprit holds pool threads.</summary>
    Blocked,

    /// <summary>No blocking, but pool threads are busy running application code (see <see cref="Diagnosis.HotMethods"/>).</summary>
    CpuBound,
}

/// <summary>How the blocked stacks were found, and what the capture contained.</summary>
/// <param name="Samples">Sample-profiler stacks read (all threads).</param>
/// <param name="WaitEvents">WaitHandleWait/Start events read (all threads); always 0 before .NET 9.</param>
/// <param name="SamplingIntervalMs">Measured median time between two samples of one thread.</param>
/// <param name="PoolThreadsSeen">Different pool worker threads in the stacks.</param>
/// <param name="BlockedThreads">Pool threads held by a catalogue call, on average over the capture.</param>
/// <param name="Fallback">What the diagnosis fell back to on a runtime without wait events; null when it had them.</param>
public sealed record StackEvidence(int Samples, int WaitEvents, double SamplingIntervalMs, int PoolThreadsSeen, double BlockedThreads, string? Fallback)
{
    /// <summary>ContentionStart events read (contended locks).</summary>
    public int ContentionEvents { get; init; }

    /// <summary>Requests ASP.NET Core's events reported during the capture (0: not an ASP.NET Core app, or no traffic).</summary>
    public int Requests { get; init; }

    /// <summary>Pool threads running application code on average (CPU samples), whatever the verdict.</summary>
    public double BusyThreads { get; init; }

    /// <summary>
    /// Pool threads waiting, on average, for locks the framework takes inside the APIs the application called, set
    /// aside as no culprit because the pool never lacked threads (<see cref="FrameworkLockGate"/>); 0 when none was.
    /// </summary>
    public double FrameworkLockThreads { get; init; }
}

/// <summary>The answer of <see cref="BlockingDiagnoser"/>: which code holds the pool threads of one process, ranked, with advice.</summary>
/// <param name="ProcessId">The diagnosed process.</param>
/// <param name="ProcessName">Its name, as the OS reports it.</param>
/// <param name="RuntimeVersion">Its .NET runtime version when readable (from the libcoreclr it mapped), else null.</param>
/// <param name="Verdict">Blocked when there is at least one culprit.</param>
/// <param name="Culprits">The groups holding pool threads, most threads first.</param>
/// <param name="CaptureDuration">How long the EventPipe session recorded.</param>
/// <param name="AnswerTime">From the call to the answer: attach, record, rundown, read, group.</param>
/// <param name="Evidence">What the stacks were read from, and the fallback if any.</param>
/// <remarks><see cref="Pool"/> is the watch of the same window (threads, queue, injections by reason, pool verdict).</remarks>
public sealed record Diagnosis(
    int ProcessId,
    string ProcessName,
    Version? RuntimeVersion,
    DiagnosisVerdict Verdict,
    IReadOnlyList<BlockedStackGroup> Culprits,
    TimeSpan CaptureDuration,
    TimeSpan AnswerTime,
    StackEvidence Evidence)
{
    /// <summary>The thread pool during the capture, from <see cref="ThreadPoolWatch"/>; null when not watched (see <see cref="PoolUnavailable"/>).</summary>
    public PoolTimeline? Pool { get; init; }

    /// <summary>The application methods pool threads were busy running, hottest first (reported when the verdict is CPU-bound).</summary>
    public IReadOnlyList<HotMethod> HotMethods { get; init; } = [];

    /// <summary>Why <see cref="Pool"/> is null, in one line; null when it is there.</summary>
    public string? PoolUnavailable { get; init; }

    /// <summary>Where the stacks came from: a live process (null), a trace or a dump collected elsewhere.</summary>
    public DiagnosisSource? Source { get; init; }

    /// <summary>Where the answer time went, for a live capture; null for a trace or dump.</summary>
    public AnswerPhases? Phases { get; init; }

    /// <summary>Why <c>--keep-trace</c> could not be written after the capture (the diagnosis stands; the command exits 8); null otherwise.</summary>
    public string? KeepTraceFailed { get; init; }

    /// <summary>The app's source root on this machine that the culprits' files are relative to; null when no PDB was read.</summary>
    public string? SourceRoot { get; init; }

    /// <summary>Which PDBs were missing or did not match their assemblies, in one line (those methods have no file and line); null when none.</summary>
    public string? LinesMissing { get; init; }
}

/// <summary>A diagnosis read from a file rather than a live process.</summary>
/// <param name="Kind">trace or dump.</param>
/// <param name="Path">The file as given.</param>
/// <param name="Missing">What the file lacks for a full diagnosis, in one line; null when nothing.</param>
public sealed record DiagnosisSource(string Kind, string Path, string? Missing);

/// <summary>Where a live diagnosis's answer time went (the rest is attaching and stopping the pool watch).</summary>
/// <param name="Record">The capture itself (--duration).</param>
/// <param name="Rundown">From stopping the session to the end of the runtime's rundown (method names, IL maps).</param>
/// <param name="Read">Reading the trace: TraceLog's conversion and the stacks.</param>
/// <param name="Analyse">Classifying, following the IL, reading the PDBs, grouping.</param>
public sealed record AnswerPhases(TimeSpan Record, TimeSpan Rundown, TimeSpan Read, TimeSpan Analyse);
