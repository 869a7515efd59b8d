using Tplab.Common;
using Tplab.Scan.Findings;

namespace Tplab.Scan.Fix.Selecting;

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

    /// <summary>The ids of the findings in a scan report (scan.json or scan.sarif) of the solution <paramref name="scanned"/>; a report of another solution or version, or no report, is a usage error (<see cref="FixFrom"/>).</summary>
    public static FixReportIds ReadReport(string path, string scanned, string rootFolder) => FixFrom.ReadIds(path, scanned, rootFolder);

    /// <summary>The targets the options select; a selection that matches nothing is a usage error naming what was asked.</summary>

    /// <param name="fromIds">The ids of <see cref="FixOptions.From"/>'s report, read before the solution loads (<see cref="ReadReport"/>).</param>
    public static IReadOnlyList<FixTarget> Select(IReadOnlyList<FixTarget> all, FixOptions options, string scanned, FixReportIds? fromIds = null)
    {
        ArgumentNullException.ThrowIfNull(all);
        ArgumentNullException.ThrowIfNull(options);
        var chosen = all.Where(t => t.Findings.Any(f => !f.Baselined)).ToList();
        var asked = new List<string>();
        if (options.From is { } from && fromIds is not null)
        {
            chosen = [.. chosen.Where(fromIds.Selects)];
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
}

/// <summary>Severity words as scan's reports write them.</summary>
internal static class ScanJsonFormatWords
{
    public static string Severity(Severity s) => Tplab.Scan.Output.ScanJsonFormat.SeverityId(s);
}
