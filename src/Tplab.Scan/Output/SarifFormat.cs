using System.Text.Json;
using Tplab.Common.Json;
using Tplab.Blocking;
using Tplab.Scan.Findings;

namespace Tplab.Scan.Output;

/// <summary>
/// SARIF 2.1.0, for GitHub code scanning and VS Code's SARIF viewer: one result per blocking site at the blocking member,
/// the entry points that reach it as related locations (bounded), the worst one's chain and a few others as code flows,
/// the finding's id as its fingerprint, one rule per blocking family, baselined findings as "unchanged" and
/// inline-ignored ones as suppressed (so a viewer hides them), skipped and partly read projects as notifications.
/// </summary>
public sealed class SarifFormat : IScanFormat
{
    internal const string SourceRoot = "%SRCROOT%";

    // GitHub keeps one alert per fingerprint across pushes: the finding's id, which does not move when lines or routes do.
    // v3: the id names its project (v2's did not, and two projects' sites could share one; fix --from still reads v2).
    internal const string FingerprintKey = "tplabFinding/v3";

    /// <summary>The fingerprint of logs whose ids did not name the project.</summary>
    internal const string FingerprintKeyWithoutProject = "tplabFinding/v2";

    /// <summary>
    /// Entry points listed per result as related locations, worst and nearest first (<c>properties.rootCount</c> has
    /// them all; the JSON lists every one). GitHub code scanning accepts at most 1,000 locations per result and shows
    /// 100; 20 keep a large solution's log small. A code flow is one chain (at most --max-depth + 1 steps, within the
    /// 10,000 thread-flow locations a result may have), and a result has at most 1 + <see cref="FindingBuilder.OtherChains"/> of them.
    /// </summary>
    public const int MaxRelatedLocations = 20;

    // tplab's JSON options, less the nulls: SARIF's schema has no null for optional properties. tplab fix --from reads
    // scan's logs back through it.
    internal static readonly SarifJson Json = new(SarifOptions());

    public string Name => "sarif";

    public IReadOnlyList<string> Extensions => [".sarif"];

    public string Description => "SARIF 2.1.0 for GitHub code scanning and SARIF viewers: each chain as a code flow";

    public void Write(ScanResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        WriteLog(ToLog(result), writer);
    }

    /// <summary>Writes a log built from <see cref="ToLog"/> (tplab fix adds its fixes to scan's results).</summary>
    internal static void WriteLog(SarifLog log, TextWriter writer) => TplabJson.Write(log, Json.SarifLog, writer);

    private static JsonSerializerOptions SarifOptions()
    {
        var options = TplabJson.Options(indented: true);
        options.DefaultIgnoreCondition = System.Text.Json.Serialization.JsonIgnoreCondition.WhenWritingNull;
        return options;
    }

    internal static SarifLog ToLog(ScanResult r)
    {
        var kinds = r.Findings.Concat(r.Suppressed).Select(f => f.Call.Kind).Distinct().OrderBy(k => k).ToList();
        var rules = kinds.Select(Rule).ToList();
        var results = r.Findings.Select(f => Result(f, kinds, suppression: null))
            .Concat(r.Suppressed.Select(f => Result(f, kinds, f.Suppression))).ToList();
        var root = new Uri(r.Input.Root.EndsWith('/') ? r.Input.Root : r.Input.Root + "/").AbsoluteUri;
        var notifications = r.Skipped.Select(s => new SarifNotification(new SarifMessage($"skipped {s.Name}: {s.Reason}"), "warning"))
            .Concat(r.ReadInPart.Select(s => new SarifNotification(new SarifMessage($"read in part {s.Name}: {s.Reason}"), "warning")))
            .Concat(r.SharedErrorsLine is { } shared ? [new SarifNotification(new SarifMessage(shared), "warning")] : [])
            .Concat(r.NoRequestCodeLine is { } nothing ? [new SarifNotification(new SarifMessage(nothing), "error")] : [])
            .Concat(r.MaxDepthLine is { } depth ? [new SarifNotification(new SarifMessage(depth), "warning")] : [])
            .ToList();
        var version = typeof(SarifFormat).Assembly.GetName().Version?.ToString(3) ?? "0";
        return new SarifLog(
            "https://json.schemastore.org/sarif-2.1.0.json",
            "2.1.0",
            [new SarifRun(
                new SarifTool(new SarifDriver("tplab", version, "tplab scan: code that blocks thread-pool threads, from each entry point", rules)),
                new Dictionary<string, SarifArtifactLocation>(StringComparer.Ordinal) { [SourceRoot] = new(root, null) },
                results,
                [new SarifInvocation(!r.Partial, notifications.Count > 0 ? notifications : null)],
                "utf16CodeUnits")]);
    }

    private static SarifRule Rule(BlockingKind kind)
    {
        var label = BlockingKindLabel(kind);
        return new SarifRule(
            PlaceWords.KindId(kind),
            string.Concat(PlaceWords.KindId(kind).Split('-').Select(w => char.ToUpperInvariant(w[0]) + w[1..])),
            new SarifMessage($"{char.ToUpperInvariant(label[0])}{label[1..]} on a thread-pool thread"),
            new SarifMessage($"A {label} reached from an entry point (an endpoint, middleware, hosted service, timer...) holds a thread-pool thread while it waits; under load the pool starves."),
            new SarifConfiguration(kind == BlockingKind.TaskRunOffload ? "note" : "error"),
            new SarifProperties(["performance", "thread-pool"]));
    }

    private static SarifResult Result(Finding f, List<BlockingKind> kinds, string? suppression)
    {
        var site = f.Site;
        var root = f.Root.Key;
        var others = f.Roots.Count > 1 ? $" It is reached from {f.Roots.Count} entry points; the worst is {root}." : $" It is reached from {root} only.";
        var message = $"{f.Call} holds a thread-pool thread, reached through {string.Join(" → ", f.Chain.Select(h => h.Display))}.{others} {f.Advice}";
        var flows = new[] { new RootChain(f.Root, f.Chain, f.Reasons) }.Concat(f.OtherChains).Select(c => Flow(c, f.Call.Name)).ToList();
        var related = f.Roots.Take(MaxRelatedLocations).Select((r, i) => new SarifLocation(
            Physical(r.Root.Node.RelativePath, r.Root.Node.Line, 1),
            new SarifMessage($"entry point {r.Root.Key} ({ScanJsonFormat.SeverityId(r.Severity)}, {r.Depth} call(s) away)"),
            null) { Id = i + 1 }).ToList();
        return new SarifResult(
            PlaceWords.KindId(f.Call.Kind),
            kinds.IndexOf(f.Call.Kind),
            JsonSeverity(f.Severity),
            new SarifMessage(message),
            [new SarifLocation(Physical(site.File, site.Line, site.Column), null, [new SarifLogicalLocation(f.UserFrame, "function")])],
            related,
            flows,
            new Dictionary<string, string>(StringComparer.Ordinal) { [FingerprintKey] = f.Id },
            f.Baselined ? "unchanged" : "new",
            suppression is null ? null : [new SarifSuppression("inSource", suppression.Length > 0 ? suppression : "tplab-ignore")],
            new SarifResultProperties(f.Id, root, f.Root.Endpoint?.Method, f.Root.Endpoint?.Route, PlaceWords.Id(f.Root.Place), f.UserFrame, f.Call.Name, f.Reasons, f.Advice,
                f.Roots.Count));
    }

    private static SarifCodeFlow Flow(RootChain c, string callName) => new(
        new SarifMessage($"{c.Root.Key} → {callName}"),
        [new SarifThreadFlow([.. c.Chain.Select((h, i) => new SarifThreadFlowLocation(
            new SarifLocation(Physical(h.File, h.Line, h.Column), new SarifMessage(i == c.Chain.Count - 1 ? $"{h.Display} calls {callName}" : h.Via is null ? h.Display : $"{h.Display} ({h.Via})"), null),
            i,
            i + 1))])]);

    private static string JsonSeverity(Severity severity) => ScanJsonFormat.SeverityId(severity);

    private static SarifPhysicalLocation Physical(string file, int line, int column) => new(Artifact(file), new SarifRegion(line, column));

    /// <summary>A file by its path relative to the scanned root ('/' separators), under the log's source root.</summary>
    internal static SarifArtifactLocation Artifact(string file) =>
        new(Uri.EscapeDataString(file).Replace("%2F", "/", StringComparison.Ordinal), SourceRoot);


    private static string BlockingKindLabel(BlockingKind kind) => new BlockingCall(kind, "", new StackFrame("", "", "")).KindLabel;
}
