using System.Text.Json;
using Tplab.Common;
using Tplab.Common.Json;
using Tplab.Scan.Findings;

namespace Tplab.Scan.Fix;

/// <summary>One blocking site to fix: its id, every finding (root) that reaches it, and where it is.</summary>
public sealed record FixTarget(string Id, IReadOnlyList<Finding> Findings)
{
    public Finding First => Findings[0];

    public ChainHop Site => First.Site;

    /// <summary>The roots that reach the site, as scan names them.</summary>
    public IReadOnlyList<string> Roots => [.. Findings.SelectMany(f => f.Roots.Count > 0 ? f.Roots.Select(r => r.Root) : [f.Root]).Select(r => r.Key).Distinct(StringComparer.Ordinal)];
}

/// <summary>
/// Which findings <c>tplab fix</c> works on: all of them, or those on a route, with given ids, at a severity, or in a
/// scan report. Ids are <see cref="FindingId"/>'s: the method, the call and its ordinal among that method's calls of
/// that name (in source order), so they match the ids scan writes.
/// </summary>
public static class FixSelection
{
    /// <summary>The findings by site, with the id scan gave each (one id, one site), in the scan's order.</summary>
    public static IReadOnlyList<FixTarget> Targets(IEnumerable<Finding> findings) =>
        [.. findings.GroupBy(f => f.Id, StringComparer.Ordinal).Select(g => new FixTarget(g.Key, [.. g]))];

    /// <summary>The targets the options select; a selection that matches nothing is a usage error naming what was asked.</summary>
    /// <summary>The ids of the findings in a scan report (scan.json or scan.sarif) of the solution <paramref name="scanned"/>; a report of another solution, or no report, is a usage error.</summary>
    public static IReadOnlySet<string> ReadReport(string path, string scanned, string rootFolder) => ReadIds(path, scanned, rootFolder);

    /// <param name="fromIds">The ids of <see cref="FixOptions.From"/>'s report, read before the solution loads (<see cref="ReadReport"/>).</param>
    public static IReadOnlyList<FixTarget> Select(IReadOnlyList<FixTarget> all, FixOptions options, string scanned, IReadOnlySet<string>? fromIds = null)
    {
        ArgumentNullException.ThrowIfNull(all);
        ArgumentNullException.ThrowIfNull(options);
        var chosen = all.Where(t => t.Findings.Any(f => !f.Baselined)).ToList();
        var asked = new List<string>();
        if (options.From is { } from && fromIds is not null)
        {
            chosen = [.. chosen.Where(t => fromIds.Contains(t.Id))];
            asked.Add($"of {from}");
        }
        if (options.FindingIds.Count > 0)
        {
            var missing = options.FindingIds.Where(id => all.All(t => t.Id != id)).ToList();
            if (missing.Count > 0)
            {
                throw TplabException.Usage($"no finding {string.Join(", ", missing)} in {scanned} (tplab scan lists the ids; a fixed finding has none)");
            }
            chosen = [.. chosen.Where(t => options.FindingIds.Contains(t.Id, StringComparer.Ordinal))];
            asked.Add("with the given ids");
        }
        if (options.Route is { } route)
        {
            chosen = [.. chosen.Where(t => t.Findings.Any(f => OnRoute(f, route)))];
            asked.Add($"on {route}");
        }
        var severity = options.Severity ?? Severity.Warning;
        chosen = [.. chosen.Where(t => t.Findings.Any(f => f.Severity >= severity))];
        if (chosen.Count == 0 && asked.Count > 0)
        {
            throw TplabException.Usage($"no finding {string.Join(" ", asked)} at {ScanJsonFormatWords.Severity(severity)} or above in {scanned}");
        }
        return chosen;
    }

    // Any entry point that reaches the site, not only the one that gives it its severity.
    private static bool OnRoute(Finding f, string route) =>
        (f.Roots.Count > 0 ? f.Roots.Select(r => r.Root) : [f.Root]).Any(root => OnRoute(root, route));

    private static bool OnRoute(Roots.EntryPoint root, string route)
    {
        var text = route.Trim();
        if (root.Endpoint is not { } e)
        {
            return string.Equals(root.Key, text, StringComparison.OrdinalIgnoreCase);
        }
        return string.Equals(e.ToString(), text, StringComparison.OrdinalIgnoreCase)
            || string.Equals(e.Route.TrimEnd('/'), text.TrimEnd('/'), StringComparison.OrdinalIgnoreCase);
    }

    private static Dictionary<(string, string, int, int), string> IdsOf(IEnumerable<(string Method, string Call, int Line, int Column)> sites)
    {
        var ids = new Dictionary<(string, string, int, int), string>();
        foreach (var group in sites.Distinct().GroupBy(s => (s.Method, s.Call)))
        {
            var ordinal = 0;
            foreach (var site in group.OrderBy(s => s.Line).ThenBy(s => s.Column))
            {
                ids[site] = FindingId.For(site.Method, site.Call, ordinal++);
            }
        }
        return ids;
    }

    // The ids of a scan report: its own "id" when it has one; a report from before ids (schema 1) gets them made from
    // what it holds, the method, the call and its place among that method's reported calls of that name.
    private static HashSet<string> ReadIds(string path, string scanned, string rootFolder)
    {
        try
        {
            using var doc = JsonDocument.Parse(File.ReadAllText(path));
            var root = doc.RootElement;
            if (root.ValueKind == JsonValueKind.Object && root.TryGetProperty("runs", out var runs))
            {
                return SarifIds(runs, path, scanned, rootFolder);
            }
            if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("findings", out var findings) || findings.ValueKind != JsonValueKind.Array)
            {
                throw TplabException.Usage($"{path} is not a tplab scan report (no findings)");
            }
            if (root.TryGetProperty("scanned", out var s) && s.ValueKind == JsonValueKind.String && !string.Equals(s.GetString(), scanned, StringComparison.Ordinal))
            {
                throw TplabException.Usage($"{path} is a scan of {s.GetString()}, not of {scanned}");
            }
            var own = new HashSet<string>(StringComparer.Ordinal);
            var sites = new List<(string, string, int, int)>();
            foreach (var f in findings.EnumerateArray())
            {
                if (f.TryGetProperty("id", out var id) && id.ValueKind == JsonValueKind.String)
                {
                    own.Add(id.GetString()!);
                    continue;
                }
                var hop = f.GetProperty("chain").EnumerateArray().Last();
                sites.Add((f.GetProperty("userFrame").GetString()!, f.GetProperty("blockingCall").GetString()!, hop.GetProperty("line").GetInt32(), hop.GetProperty("column").GetInt32()));
            }
            own.UnionWith(IdsOf(sites).Values);
            return own;
        }
        catch (JsonException e)
        {
            throw TplabException.Usage($"{path} is not a tplab scan report: {TplabJson.Reason(e)}");
        }
        catch (Exception e) when (e is KeyNotFoundException or InvalidOperationException or FormatException)
        {
            throw TplabException.Usage($"{path} is not a tplab scan report: {e.Message}");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw TplabException.Usage($"cannot read {path}: {e.Message}");
        }
    }

    private static HashSet<string> SarifIds(JsonElement runs, string path, string scanned, string rootFolder)
    {
        var own = new HashSet<string>(StringComparer.Ordinal);
        var sites = new List<(string, string, int, int)>();
        foreach (var run in runs.EnumerateArray())
        {
            if (run.TryGetProperty("tool", out var tool) && tool.GetProperty("driver").GetProperty("name").GetString() != "tplab")
            {
                throw TplabException.Usage($"{path} is a SARIF log of another tool, not of tplab scan");
            }
            if (run.TryGetProperty("originalUriBaseIds", out var bases) && bases.TryGetProperty("SRCROOT", out var src)
                && src.TryGetProperty("uri", out var uri) && uri.GetString() is { } u && !u.TrimEnd('/').EndsWith("/" + Uri.EscapeDataString(Path.GetFileName(rootFolder.TrimEnd('/'))), StringComparison.Ordinal))
            {
                // The root folder is recorded; the solution's name is not: a report of another folder is another solution.
                throw TplabException.Usage($"{path} is a scan of {u}, not of {scanned}");
            }
            foreach (var r in run.GetProperty("results").EnumerateArray())
            {
                if (r.TryGetProperty("partialFingerprints", out var fp))
                {
                    foreach (var p in fp.EnumerateObject().Where(p => p.Value.ValueKind == JsonValueKind.String && FindingId.IsWellFormed(p.Value.GetString()!)))
                    {
                        own.Add(p.Value.GetString()!);
                    }
                }
                var props = r.GetProperty("properties");
                var region = r.GetProperty("locations")[0].GetProperty("physicalLocation").GetProperty("region");
                sites.Add((props.GetProperty("userFrame").GetString()!, props.GetProperty("blockingCall").GetString()!, region.GetProperty("startLine").GetInt32(), region.GetProperty("startColumn").GetInt32()));
            }
        }
        own.UnionWith(IdsOf(sites).Values);
        return own;
    }

}

/// <summary>Severity words as scan's reports write them.</summary>
internal static class ScanJsonFormatWords
{
    public static string Severity(Severity s) => Output.ScanJsonFormat.SeverityId(s);
}
