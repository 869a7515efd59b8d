using System.Globalization;
using Tplab.Blocking;
using Tplab.Scan.Findings;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Output;

/// <summary>
/// The report for a person: what was read, a summary (sites by severity and kind, the entry points that reach the most
/// sites), then each blocking site once, worst first, with the entry points that reach it, the worst one's chain file
/// by file, and the fix (<c>--group-by endpoint</c>: each entry point with the sites it reaches). No line is longer
/// than a screen needs: long lists say how many more there are, long sentences wrap.
/// </summary>
public sealed record ScanTextFormat : IScanFormat
{
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    public string Name => "text";

    public IReadOnlyList<string> Extensions => [".txt"];

    public string Description => "for a person: a summary, then each blocking site once, worst first, with its entry points, the chain with file:line, and the fix";

    /// <summary>At most this many sites (or entry points, grouped by endpoint), worst first; null: all.</summary>
    public int? Top { get; init; }

    public ScanGrouping GroupBy { get; init; } = ScanGrouping.Site;

    public void Write(ScanResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        var r = result;
        if (r.NoRequestCodeLine is { } nothing)
        {
            ScanTextWidth.Wrap("tplab scan: ", nothing, writer);
        }
        var leftOut = r.LeftOutTests.Count > 0 ? $"; {r.LeftOutTests.Count} test project(s) left out (--include-tests reads them)" : "";
        ScanTextWidth.Wrap("tplab scan: ", string.Create(Inv,
            $"{r.Input.DisplayName}: {r.Analysed.Count} project(s) loaded in {r.LoadTime.TotalSeconds:0.0} s; {r.EntryPoints} entry points, {r.MethodsRead} methods followed in {r.AnalysisTime.TotalSeconds:0.0} s{leftOut}"), writer);
        foreach (var inPart in r.ReadInPart)
        {
            ScanTextWidth.Wrap("read in part: ", inPart.ToString(), writer);
        }
        foreach (var skipped in r.Skipped)
        {
            ScanTextWidth.Wrap("skipped: ", skipped.ToString(), writer);
        }
        if (r.SharedErrorsLine is { } shared)
        {
            ScanTextWidth.Wrap("", shared, writer);
        }
        if (r.ReadInPart.Count > 0)
        {
            ScanTextWidth.Wrap("", "(read in part: analysed without what is named; tplab scan --verbose lists every error and unresolved name)", writer);
        }
        if (r.Unknown > 0)
        {
            ScanTextWidth.Wrap("unknown: ", string.Create(Inv, $"{r.Unknown} call(s) on the paths followed could not be resolved (a package missing?): neither followed nor judged"), writer);
        }
        if (r.MaxDepthLine is { } depth)
        {
            ScanTextWidth.Wrap("", depth, writer);
        }
        WriteSummary(r, writer);
        if (r.Findings.Count == 0)
        {
            writer.WriteLine(r.EntryPoints == 0
                ? "no entry point found: no controller, endpoint, middleware, hub, hosted service or timer in the code read"
                : "no blocking call is reached from any entry point");
            return;
        }
        if (GroupBy == ScanGrouping.Endpoint)
        {
            ScanTextSites.WriteByEndpoint(r, Top, writer);
        }
        else
        {
            ScanTextSites.WriteBySite(r, Top, writer);
        }
    }

    private static void WriteSummary(ScanResult r, TextWriter writer)
    {
        var extra = new List<string>();
        if (r.Baselined > 0)
        {
            extra.Add(string.Create(Inv, $"{r.Baselined} more in the baseline"));
        }
        if (r.Suppressed.Count > 0)
        {
            extra.Add(string.Create(Inv, $"{r.Suppressed.Count} ignored inline"));
        }
        ScanTextWidth.Wrap("findings: ", string.Create(Inv,
            $"{r.Findings.Count - r.Baselined} blocking site(s): {r.Count(Severity.Error)} error(s), {r.Count(Severity.Warning)} warning(s), {r.Count(Severity.Note)} note(s){(extra.Count > 0 ? " (" + string.Join(", ", extra) + ")" : "")}"), writer);
        if (r.Findings.Count == 0)
        {
            return;
        }
        var kinds = r.Findings.GroupBy(f => PlaceWords.KindId(f.Call.Kind)).OrderByDescending(g => g.Count()).ThenBy(g => g.Key, StringComparer.Ordinal)
            .Select(g => string.Create(Inv, $"{g.Key} {g.Count()}"));
        writer.WriteLine(ScanTextWidth.Limit("by kind: ", kinds, 6));
        // Grouped by the entry point itself (two actions can share a route), counted once per site.
        IEqualityComparer<EntryPoint> same = ReferenceEqualityComparer.Instance;
        var reached = r.Findings.SelectMany(f => f.Roots.Select(x => x.Root).Distinct(same)).GroupBy(x => x, same)
            .Select(g => (Key: g.Key.Key, Sites: g.Count())).OrderByDescending(x => x.Sites).ThenBy(x => x.Key, StringComparer.Ordinal).ToList();
        writer.WriteLine(ScanTextWidth.Limit(string.Create(Inv, $"{reached.Count} entry point(s) reach them; most sites: "),
            reached.Select(x => string.Create(Inv, $"{x.Key} ({x.Sites})")), 5));
    }
}
