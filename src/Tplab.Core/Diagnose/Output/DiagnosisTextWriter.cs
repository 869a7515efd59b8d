using System.Globalization;
using Tplab.Blocking;
using Tplab.Diagnose.Stacks;
using Tplab.Watch.Verdicts;

namespace Tplab.Diagnose.Output;

/// <summary>The report for a person: verdict first, then each culprit with the fix and the stack that proves it.</summary>
public sealed class DiagnosisTextWriter : IDiagnosisWriter
{
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    /// <inheritdoc />
    public string Name => "text";

    /// <inheritdoc />
    public string Description => "the culprits, their chains and advice, for people";

    /// <inheritdoc />
    public IReadOnlyList<string> Extensions => [".txt"];

    public void Write(Diagnosis diagnosis, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(diagnosis);
        ArgumentNullException.ThrowIfNull(output);
        var d = diagnosis;
        var runtime = d.RuntimeVersion is { } v ? $".NET {v}" : "runtime version unknown";
        output.WriteLine(d.Source?.Kind == "dump"
            ? string.Create(Inv, $"tplab diagnose: process {d.ProcessId} ({d.ProcessName}), {runtime}: the stacks of one moment, answered in {d.AnswerTime.TotalSeconds:0.0} s")
            : string.Create(Inv, $"tplab diagnose: process {d.ProcessId} ({d.ProcessName}), {runtime}: {d.CaptureDuration.TotalSeconds:0.0} s of stacks, answered in {d.AnswerTime.TotalSeconds:0.0} s{Phases(d.Phases)}"));
        if (d.Source is { } source)
        {
            output.WriteLine($"source: {source.Kind} {source.Path}");
            if (source.Missing is { } missing)
            {
                output.WriteLine($"missing: {missing}");
            }
        }
        var e = d.Evidence;
        output.WriteLine(d.Verdict switch
        {
            DiagnosisVerdict.Blocked => string.Create(Inv, $"verdict: BLOCKED, {e.BlockedThreads:0.0} of {e.PoolThreadsSeen} pool threads held by blocking calls on average"),
            DiagnosisVerdict.CpuBound => string.Create(Inv, $"verdict: CPU-BOUND, no blocking call holds pool threads, but {e.BusyThreads:0.0} pool threads on average are busy running application code"),
            _ => string.Create(Inv, $"verdict: CLEAR, no pool thread held by a blocking call ({e.BlockedThreads:0.00} on average, {e.PoolThreadsSeen} pool threads seen)"),
        });
        if (e.FrameworkLockThreads > 0)
        {
            output.WriteLine(string.Create(Inv, $"framework locks: {e.FrameworkLockThreads:0.0} pool threads on average waited for locks .NET or a library takes inside the calls the app made; the pool never lacked threads, so no culprit (a busy machine delays the holder)"));
        }
        output.WriteLine(PoolLine(d));
        if (d.Culprits.Count > 0 && d.SourceRoot is { } root)
        {
            output.WriteLine($"files: relative to {root}");
        }
        if (d.Culprits.Count > 0 && d.LinesMissing is { } linesMissing)
        {
            output.WriteLine(linesMissing);
        }
        var rank = 0;
        foreach (var c in d.Culprits)
        {
            rank++;
            output.WriteLine();
            output.WriteLine(string.Create(Inv,
                $"#{rank}  {CulpritNames.Who(c)} holds {c.Threads:0.0} pool threads ({c.DistinctThreads} different), {c.Share:0%} of blocked time"));
            output.WriteLine($"    endpoint: {CulpritNames.Endpoint(c)}");
            output.WriteLine($"    where: {CulpritNames.Where(c)}");
            if (CulpritNames.ReachedFrom(c) is { } reached)
            {
                output.WriteLine($"    reached from: {reached}");
            }
            WriteChain(c, output);
            output.WriteLine($"    blocking call: {c.BlockingCall}{ContextText(c.Context)}");
            output.WriteLine($"    fix: {c.Advice}");
            output.WriteLine("    stack (top first):");
            var mine = c.UserFrame?.Frame is not null ? c.UserFrame.ReadableName : null;
            foreach (var frame in c.Stack)
            {
                output.WriteLine($"      {frame}{(frame == mine ? "   <- your code" : "")}");
            }
        }
        foreach (var h in d.Verdict == DiagnosisVerdict.CpuBound ? d.HotMethods : [])
        {
            output.WriteLine(string.Create(Inv, $"    hot: {h.Method.DisplayName} runs on {h.Threads:0.0} pool threads on average ({h.Share:0%} of application CPU samples)"));
        }
        output.WriteLine();
        output.WriteLine(d.Source?.Kind == "dump"
            ? string.Create(Inv, $"evidence: {e.Samples} thread stacks at the moment of the dump")
            : string.Create(Inv, $"evidence: {e.Samples} stack samples (one per thread every {e.SamplingIntervalMs:0.0} ms), {e.WaitEvents} wait events and {e.ContentionEvents} lock contentions with stacks, {e.Requests} requests in ASP.NET Core's events"));
        if (e.Fallback is { } fallback)
        {
            output.WriteLine($"fallback: {fallback}");
        }
    }

    // Where the wait beyond the capture went: the runtime's rundown, reading the trace, the analysis.
    private static string Phases(AnswerPhases? phases) => phases is { } p
        ? string.Create(Inv, $" (rundown {p.Rundown.TotalSeconds:0.0} s, reading {p.Read.TotalSeconds:0.0} s, analysis {p.Analyse.TotalSeconds:0.0} s)")
        : "";

    private static string PoolLine(Diagnosis d)
    {
        if (d.Pool is not { } pool)
        {
            return $"pool: {d.PoolUnavailable ?? "not watched"}";
        }
        // The watch's evidence already names threads, queue and injections by reason.
        return $"pool: {pool.Verdict.ToWord()} ({pool.Evidence})";
    }

    // One hop a line, names and files aligned; a hop the JIT inlined away (no frame of its own) says it came from the IL.
    private static void WriteChain(BlockedStackGroup c, TextWriter output)
    {
        if (c.Chain.Count == 0)
        {
            return;
        }
        output.WriteLine("    chain, outermost first (each line: the call to the next hop; the last: the blocking call):");
        var width = c.Chain.Max(h => h.Name.Length);
        var fileWidth = c.Chain.Max(h => h.At?.ToString().Length ?? 0);
        foreach (var hop in c.Chain)
        {
            var at = hop.At?.ToString() ?? "(no line)";
            var from = hop.From == Chains.HopSource.Il ? "   inlined: recovered from the IL" : "";
            output.WriteLine($"      {hop.Name.PadRight(width)}   {at.PadRight(Math.Max(fileWidth, 9))}{from}".TrimEnd());
        }
    }

    private static string ContextText(CallContext context)
    {
        var parts = new List<string>();
        if (context.HasFlag(CallContext.RequestPath))
        {
            parts.Add("in a request path");
        }
        if (context.HasFlag(CallContext.TaskRun))
        {
            parts.Add("inside Task.Run");
        }
        if (context.HasFlag(CallContext.AsyncMethod))
        {
            parts.Add("inside an async method");
        }
        if (context.HasFlag(CallContext.Continuation))
        {
            parts.Add("in a continuation after an await");
        }
        return parts.Count == 0 ? "" : ", " + string.Join(", ", parts);
    }
}
