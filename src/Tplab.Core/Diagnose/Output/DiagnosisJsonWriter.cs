using Tplab.Blocking;
using Tplab.Watch.Verdicts;

namespace Tplab.Diagnose.Output;

/// <summary>The report for machines: <see cref="DiagnosisDocument"/> (schema 3, docs/diagnose.md and docs/schemas/diagnosis.schema.json).</summary>
public sealed class DiagnosisJsonWriter : IDiagnosisWriter
{
    /// <summary>Bumped when a field changes meaning or goes away.</summary>
    public const int SchemaVersion = DiagnosisJson.Schema;

    /// <inheritdoc />
    public string Name => "json";

    /// <inheritdoc />
    public string Description => "the diagnosis as JSON (docs/schemas/diagnosis.schema.json)";

    /// <inheritdoc />
    public IReadOnlyList<string> Extensions => [".json"];

    /// <inheritdoc />
    public bool MachineReadable => true;

    public void Write(Diagnosis diagnosis, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(diagnosis);
        ArgumentNullException.ThrowIfNull(output);
        output.WriteLine(DiagnosisJson.Write(ToDocument(diagnosis)));
    }

    /// <summary>The document of a diagnosis: figures rounded as users read them.</summary>
    public static DiagnosisDocument ToDocument(Diagnosis d)
    {
        ArgumentNullException.ThrowIfNull(d);
        return new DiagnosisDocument(
            SchemaVersion,
            d.ProcessId,
            d.ProcessName,
            d.RuntimeVersion?.ToString(),
            d.Verdict,
            Math.Round(d.CaptureDuration.TotalSeconds, 3),
            Math.Round(d.AnswerTime.TotalSeconds, 3),
            [.. d.Culprits.Select(Culprit)],
            new EvidenceDocument(
                d.Evidence.Samples,
                d.Evidence.WaitEvents,
                Math.Round(d.Evidence.SamplingIntervalMs, 3),
                d.Evidence.PoolThreadsSeen,
                Math.Round(d.Evidence.BlockedThreads, 2),
                d.Evidence.Fallback,
                d.Evidence.ContentionEvents,
                d.Evidence.Requests,
                Math.Round(d.Evidence.BusyThreads, 2),
                Math.Round(d.Evidence.FrameworkLockThreads, 2)),
            [.. (d.Verdict == DiagnosisVerdict.CpuBound ? d.HotMethods : []).Select(h => new HotMethodDocument(h.Method.FullName, Math.Round(h.Threads, 2), Math.Round(h.Share, 3)))],
            d.Pool is { } pool
                ? new PoolDocument(pool.Verdict.ToWord(), pool.Evidence, pool.ThreadsStart, pool.ThreadsPeak, pool.QueuePeak, pool.InjectionsByReason, null)
                : new PoolDocument(null, null, null, null, null, null, d.PoolUnavailable ?? "not watched"),
            new SourceDocument(d.Source?.Kind ?? "live", d.Source?.Path, d.Source?.Missing, d.SourceRoot, d.LinesMissing));
    }

    private static CulpritDocument Culprit(BlockedStackGroup c) => new(
        c.BlockingCall.Name,
        c.BlockingCall.Kind,
        c.BlockingCall.On,
        c.UserFrame?.FullName,
        c.At?.File,
        c.At?.Line,
        c.Endpoint is { } ep ? new EndpointDocument(ep.Method, ep.Route, ep.Action?.FullName) : null,
        c.OtherEndpoints,
        c.Place,
        c.Service,
        [.. c.Chain.Select(h => new HopDocument(h.Name, h.At?.File, h.At?.Line, h.From))],
        ContextsOf(c.Context),
        Math.Round(c.Threads, 2),
        c.DistinctThreads,
        Math.Round(c.Share, 3),
        c.Stack,
        c.Advice);

    private static CallContext[] ContextsOf(CallContext context) =>
        [.. Enum.GetValues<CallContext>().Where(f => f != CallContext.None && context.HasFlag(f))];
}
