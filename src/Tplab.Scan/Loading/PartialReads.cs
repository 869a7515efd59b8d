using System.Globalization;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;

namespace Tplab.Scan.Loading;

/// <summary>
/// The projects analysed without some of their references, each named once in one short line: not restored, the names
/// it could not resolve (three, and how many more), its own MSBuild errors (the first, and how many more). An error
/// MSBuild reports for several projects (a solution's restore errors, repeated per project) is said once for all
/// (<see cref="Shared"/>), not in every project's line; <c>--verbose</c> lists everything.
/// </summary>
internal sealed partial class PartialReads
{
    private PartialReads(List<SkippedProject> projects, List<string> shared) => (Projects, Shared) = (projects, shared);

    public IReadOnlyList<SkippedProject> Projects { get; }

    /// <summary>Errors MSBuild reported for more than one project, in the order first seen going through the projects by path.</summary>
    public IReadOnlyList<string> Shared { get; }

    public static PartialReads Of(IReadOnlyList<LoadedProject> projects, ISet<string> unrestored, IReadOnlyDictionary<string, List<string>> failures)
    {
        var counts = failures.Values.SelectMany(e => e.Distinct(StringComparer.Ordinal)).GroupBy(e => e, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.Count(), StringComparer.Ordinal);
        // By project path, then as MSBuild reported them: the failures arrive concurrently, and a dictionary's order is
        // its hashing's (string hashes are randomised per process), so the report would change from run to run.
        var shared = failures.OrderBy(f => f.Key, StringComparer.Ordinal).SelectMany(f => f.Value).Where(e => counts[e] > 1).Distinct(StringComparer.Ordinal).ToList();
        var list = new List<SkippedProject>();
        foreach (var project in projects)
        {
            var path = project.Project.FilePath ?? "";
            var errors = failures.TryGetValue(path, out var e) ? e : [];
            var notRestored = unrestored.Contains(path);
            if (!notRestored && project.Unresolved.Count == 0 && errors.Count == 0)
            {
                continue;
            }
            var own = errors.Where(x => counts[x] == 1).ToList();
            var parts = new List<string>();
            if (notRestored)
            {
                parts.Add("not restored");
            }
            if (project.Unresolved.Count > 0)
            {
                parts.Add(Unresolved(project.Unresolved));
            }
            if (own.Count > 0)
            {
                parts.Add("MSBuild: " + SkippedProject.OneLine(own, 72, brief: true));
            }
            if (errors.Count > own.Count)
            {
                parts.Add(string.Create(CultureInfo.InvariantCulture, $"{errors.Count - own.Count} shared MSBuild error(s)"));
            }
            list.Add(new SkippedProject(project.Name, string.Join("; ", parts)) { Details = [.. project.Unresolved.Select(u => UnresolvedPrefix + u), .. errors] });
        }
        return new PartialReads(list, shared);
    }

    /// <summary>
    /// <paramref name="readInPart"/> with every project whose code on the paths followed holds calls source could not
    /// resolve (<paramref name="unknown"/>: the file of each, full paths): counted in its line, and the project named as read in part
    /// when nothing else had named it (restored, no MSBuild error, yet a reference did not resolve: a package removed
    /// or missing from the feed), with the names its declarations cannot resolve, looked for then.
    /// </summary>
    /// <param name="known">The names each project was found not to resolve before, when none of what they are read from changed
    /// (an incremental scan after edits inside bodies: declarations, references and options as they were).</param>
    public static IReadOnlyList<SkippedProject> WithUnknownCalls(IReadOnlyList<SkippedProject> readInPart, IReadOnlyList<LoadedProject> projects, IReadOnlyList<string> unknown,
        CancellationToken cancellationToken = default, IReadOnlyDictionary<string, IReadOnlyList<string>>? known = null)
    {
        var byFile = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var project in projects)
        {
            foreach (var document in project.Project.Documents)
            {
                if (document.FilePath is { } file)
                {
                    byFile.TryAdd(file, project.Name);
                }
            }
        }
        var counts = unknown.Select(f => byFile.TryGetValue(f, out var name) ? name : null).OfType<string>()
            .GroupBy(n => n, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Count(), StringComparer.Ordinal);
        var list = readInPart.Select(p => counts.TryGetValue(p.Name, out var n) ? p with { Reason = p.Reason + "; " + Calls(n) } : p).ToList();
        foreach (var project in projects.Where(p => counts.ContainsKey(p.Name) && !readInPart.Any(r => r.Name == p.Name)))
        {
            var names = project.Unresolved.Count > 0 ? project.Unresolved
                : known?.GetValueOrDefault(project.Name) ?? UnresolvedNames(project.Compilation, unrestored: false, cancellationToken);
            var named = names.Count > 0 ? Unresolved(names) + "; " : "";
            list.Add(new SkippedProject(project.Name, named + Calls(counts[project.Name]) + " (a reference that did not resolve)") { Details = [.. names.Select(u => UnresolvedPrefix + u)] });
        }
        return list;
    }

    /// <summary>The unresolved names <see cref="WithUnknownCalls"/> gave each project it named (from its details).</summary>
    public static Dictionary<string, IReadOnlyList<string>> NamesOf(IEnumerable<(string Name, IReadOnlyList<string> Details)> readInPart)
    {
        var names = new Dictionary<string, IReadOnlyList<string>>(StringComparer.Ordinal);
        foreach (var (name, details) in readInPart)
        {
            names.TryAdd(name, [.. details.Where(d => d.StartsWith(UnresolvedPrefix, StringComparison.Ordinal)).Select(d => d[UnresolvedPrefix.Length..])]);
        }
        return names;
    }

    private const string UnresolvedPrefix = "unresolved: ";

    /// <summary>
    /// The names a project cannot resolve: CS0246 (type or namespace) and CS0234 (missing in namespace). An unrestored
    /// project's bodies are read for them; a restored one's declarations only (binding every body here would double the scan).
    /// </summary>
    public static List<string> UnresolvedNames(Compilation compilation, bool unrestored, CancellationToken cancellationToken) =>
        [.. (unrestored ? compilation.GetDiagnostics(cancellationToken) : compilation.GetDeclarationDiagnostics(cancellationToken))
            .Where(d => d.Id is "CS0246" or "CS0234")
            .Select(d => FirstQuoted().Match(d.GetMessage(CultureInfo.InvariantCulture)))
            .Where(m => m.Success)
            .Select(m => m.Groups[1].Value)
            .Distinct(StringComparer.Ordinal)
            .Order(StringComparer.Ordinal)];

    private static string Calls(int count) => string.Create(CultureInfo.InvariantCulture, $"{count} unresolved call(s) on the paths followed");

    [GeneratedRegex("'([^']+)'")]
    private static partial Regex FirstQuoted();

    private static string Unresolved(IReadOnlyList<string> names) => names.Count <= 3
        ? $"{string.Join(", ", names)} unresolved"
        : string.Create(CultureInfo.InvariantCulture, $"{names.Count} unresolved ({string.Join(", ", names.Take(3))}, …)");
}
