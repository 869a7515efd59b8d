using System.Text.Json;
using System.Text.Json.Serialization;
using Tplab.Diagnose.Stacks;
using Tplab.Watch.Verdicts;

namespace Tplab.Diagnose.Output;

/// <summary>The report for machines; the schema is documented in docs/diagnose.md and versioned by <c>schema</c>.</summary>
public sealed class DiagnosisJsonWriter : IDiagnosisWriter
{
    /// <summary>Bumped when a field changes meaning or goes away.</summary>
    public const int SchemaVersion = 1;

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
        d.Verdict == DiagnosisVerdict.Blocked ? "blocked" : "clear",
        Math.Round(d.CaptureDuration.TotalSeconds, 3),
        Math.Round(d.AnswerTime.TotalSeconds, 3),
        [.. d.Culprits.Select(c => new CulpritDocument(
            c.BlockingCall.Name,
            KindName(c.BlockingCall.Kind),
            c.UserFrame?.FullName,
            ContextNames(c.Context),
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
            d.Evidence.Fallback),
        d.Pool is { } pool
            ? new PoolDocument(pool.Verdict.ToWord(), pool.Evidence, pool.ThreadsStart, pool.ThreadsPeak, pool.QueuePeak, pool.InjectionsByReason, null)
            : new PoolDocument(null, null, null, null, null, null, d.PoolUnavailable ?? "not watched"),
        d.Source is { } source ? new SourceDocument(source.Kind, source.Path, source.Missing) : new SourceDocument("live", null, null));

    private static string KindName(BlockingKind kind) => kind switch
    {
        BlockingKind.Sleep => "sleep",
        BlockingKind.SyncOverAsync => "sync-over-async",
        BlockingKind.Lock => "lock",
        BlockingKind.SyncWait => "sync-wait",
        BlockingKind.SyncDatabaseIO => "sync-database-io",
        BlockingKind.SyncHttp => "sync-http",
        BlockingKind.SyncSocketIO => "sync-socket-io",
        BlockingKind.SyncStreamIO => "sync-stream-io",
        _ => kind.ToString(),
    };

    private static string[] ContextNames(CallContext context) =>
    [
        .. context.HasFlag(CallContext.RequestPath) ? ["request-path"] : Array.Empty<string>(),
        .. context.HasFlag(CallContext.TaskRun) ? ["task-run"] : Array.Empty<string>(),
        .. context.HasFlag(CallContext.AsyncMethod) ? ["async-method"] : Array.Empty<string>(),
    ];

    internal sealed record DiagnosisDocument(
        int Schema, int ProcessId, string ProcessName, string? RuntimeVersion, string Verdict,
        double CaptureSeconds, double AnswerSeconds, IReadOnlyList<CulpritDocument> Culprits, EvidenceDocument Evidence,
        PoolDocument Pool, SourceDocument Source);

    internal sealed record SourceDocument(string Kind, string? Path, string? Missing);

    internal sealed record CulpritDocument(
        string BlockingCall, string BlockingKind, string? UserFrame, IReadOnlyList<string> Context,
        double Threads, int DistinctThreads, double Share, IReadOnlyList<string> Stack, string Advice);

    internal sealed record PoolDocument(
        string? Verdict, string? Evidence, int? ThreadsStart, int? ThreadsPeak, long? QueuePeak,
        IReadOnlyDictionary<string, int>? InjectionsByReason, string? Unavailable);

    internal sealed record EvidenceDocument(
        int Samples, int WaitEvents, double SamplingIntervalMs, int PoolThreadsSeen, double BlockedThreads, string? Fallback);
}
