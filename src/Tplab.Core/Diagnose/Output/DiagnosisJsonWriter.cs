using System.Text.Json.Serialization;
using System.Text.Json;
using Tplab.Blocking;
using Tplab.Diagnose.Stacks;
using Tplab.Watch.Verdicts;

namespace Tplab.Diagnose.Output;

/// <summary>The report for machines; the schema is documented in docs/diagnose.md and versioned by <c>schema</c>.</summary>
public sealed class DiagnosisJsonWriter : IDiagnosisWriter
{
    /// <summary>Bumped when a field changes meaning or goes away.</summary>
    public const int SchemaVersion = 2;

    private static readonly JsonSerializerOptions Json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        WriteIndented = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.Never,
        Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    public string Format => "json";

    public void Write(Diagnosis diagnosis, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(diagnosis);
        ArgumentNullException.ThrowIfNull(output);
        output.WriteLine(JsonSerializer.Serialize(ToDocument(diagnosis), Json));
    }

    internal static DiagnosisDocument ToDocument(Diagnosis d) => new(
        SchemaVersion,
        d.ProcessId,
        d.ProcessName,
        d.RuntimeVersion?.ToString(),
        CulpritNames.VerdictId(d.Verdict),
        Math.Round(d.CaptureDuration.TotalSeconds, 3),
        Math.Round(d.AnswerTime.TotalSeconds, 3),
        [.. d.Culprits.Select(c => new CulpritDocument(
            c.BlockingCall.Name,
            PlaceWords.KindId(c.BlockingCall.Kind),
            c.BlockingCall.On,
            c.UserFrame?.FullName,
            c.UserFrame is { } u ? u.InlinedInto : c.InlinedInto,
            c.Endpoint is { } ep ? new EndpointDocument(ep.Method, ep.Route, ep.Action?.FullName) : null,
            c.OtherEndpoints,
            PlaceWords.Id(c.Place),
            [.. c.Chain.Select(m => m.FullName)],
            PlaceWords.ContextIds(c.Context),
            Math.Round(c.Threads, 2),
            c.DistinctThreads,
            Math.Round(c.Share, 3),
            c.Stack,
            c.Advice))],
        new EvidenceDocument(
            d.Evidence.Samples,
            d.Evidence.WaitEvents,
            Math.Round(d.Evidence.SamplingIntervalMs, 3),
            d.Evidence.PoolThreadsSeen,
            Math.Round(d.Evidence.BlockedThreads, 2),
            d.Evidence.Fallback,
            d.Evidence.ContentionEvents,
            d.Evidence.Requests,
            Math.Round(d.Evidence.BusyThreads, 2)),
        [.. (d.Verdict == DiagnosisVerdict.CpuBound ? d.HotMethods : []).Select(h => new HotMethodDocument(h.Method.FullName, Math.Round(h.Threads, 2), Math.Round(h.Share, 3)))],
        d.Pool is { } pool
            ? new PoolDocument(pool.Verdict.ToWord(), pool.Evidence, pool.ThreadsStart, pool.ThreadsPeak, pool.QueuePeak, pool.InjectionsByReason, null)
            : new PoolDocument(null, null, null, null, null, null, d.PoolUnavailable ?? "not watched"),
        d.Source is { } source ? new SourceDocument(source.Kind, source.Path, source.Missing) : new SourceDocument("live", null, null));

    internal sealed record DiagnosisDocument(
        int Schema, int ProcessId, string ProcessName, string? RuntimeVersion, string Verdict,
        double CaptureSeconds, double AnswerSeconds, IReadOnlyList<CulpritDocument> Culprits, EvidenceDocument Evidence,
        IReadOnlyList<HotMethodDocument> HotMethods, PoolDocument Pool, SourceDocument Source);

    internal sealed record SourceDocument(string Kind, string? Path, string? Missing);

    internal sealed record CulpritDocument(
        string BlockingCall, string BlockingKind, string? BlockingOn, string? UserFrame, string? InlinedInto, EndpointDocument? Endpoint,
        int OtherEndpoints, string Place, IReadOnlyList<string> Chain, IReadOnlyList<string> Context,
        double Threads, int DistinctThreads, double Share, IReadOnlyList<string> Stack, string Advice);

    internal sealed record PoolDocument(
        string? Verdict, string? Evidence, int? ThreadsStart, int? ThreadsPeak, long? QueuePeak,
        IReadOnlyDictionary<string, int>? InjectionsByReason, string? Unavailable);

    internal sealed record EvidenceDocument(
        int Samples, int WaitEvents, double SamplingIntervalMs, int PoolThreadsSeen, double BlockedThreads, string? Fallback,
        int ContentionEvents, int Requests, double BusyThreads);

    internal sealed record EndpointDocument(string Method, string Route, string? Action);

    internal sealed record HotMethodDocument(string Method, double Threads, double Share);
}
