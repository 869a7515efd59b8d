using System.Globalization;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;

namespace Tplab.Scan.Loading;

/// <summary>
/// Which framework's project to read of a multi-targeted project (<c>&lt;TargetFrameworks&gt;netstandard2.0;net9.0</c>):
/// MSBuildWorkspace loads one project per framework, the source is the same, and the scan reads one. It must be the
/// one the app runs: a project nothing references (the web app) by its newest framework, then every project it
/// references as it references it (the app's net9.0 flavour references the library's net9.0 flavour, whose symbols are
/// the ones the app's calls bind to; another flavour's would leave every call into the library unresolved to the walk).
/// </summary>
internal static partial class Flavours
{
    /// <summary>One project per project file: the flavours the apps run, single-targeted projects as they are.</summary>
    public static HashSet<ProjectId> Choose(IReadOnlyList<Project> projects)
    {
        var byPath = projects.GroupBy(p => p.FilePath ?? p.Id.Id.ToString()).ToList();
        if (byPath.All(g => g.Count() == 1))
        {
            return [.. projects.Select(p => p.Id)];
        }
        var pathOf = projects.ToDictionary(p => p.Id, p => p.FilePath ?? p.Id.Id.ToString());
        var byId = projects.ToDictionary(p => p.Id);
        // Referenced from another project file: not where the app starts.
        var referencedPaths = projects.SelectMany(p => p.ProjectReferences.Select(r => (From: pathOf[p.Id], To: r.ProjectId)))
            .Where(r => pathOf.TryGetValue(r.To, out var to) && to != r.From).Select(r => pathOf[r.To]).ToHashSet(StringComparer.Ordinal);
        var chosen = new Dictionary<string, ProjectId>(StringComparer.Ordinal);
        var queue = new Queue<Project>();
        void Take(Project project)
        {
            if (chosen.TryAdd(pathOf[project.Id], project.Id))
            {
                queue.Enqueue(project);
            }
        }
        foreach (var group in byPath.Where(g => !referencedPaths.Contains(g.Key)))
        {
            Take(Newest(group));
        }
        while (true)
        {
            while (queue.TryDequeue(out var project))
            {
                foreach (var reference in project.ProjectReferences)
                {
                    if (byId.TryGetValue(reference.ProjectId, out var referenced))
                    {
                        Take(referenced);
                    }
                }
            }
            // Only referenced through a cycle or from nothing loaded: its newest framework.
            if (byPath.FirstOrDefault(g => !chosen.ContainsKey(g.Key)) is not { } left)
            {
                break;
            }
            Take(Newest(left));
        }
        return [.. chosen.Values];
    }

    // The newest framework of a project's flavours: net9.0 before net471 and netstandard2.0.
    private static Project Newest(IEnumerable<Project> flavours) =>
        flavours.OrderByDescending(p => Rank(p.Name)).ThenBy(p => p.Name, StringComparer.Ordinal).First();

    /// <summary>A framework's rank, newest highest: net5.0 and later, then netcoreapp, netstandard, the .NET Framework (Roslyn names a flavour "Name(tfm)").</summary>
    public static (int Family, double Version) Rank(string projectName)
    {
        var match = FrameworkSuffix().Match(projectName);
        if (!match.Success)
        {
            return (0, 0);
        }
        var tfm = match.Groups[1].Value.Split('-')[0];
        var family = tfm.StartsWith("netcoreapp", StringComparison.OrdinalIgnoreCase) ? 3
            : tfm.StartsWith("netstandard", StringComparison.OrdinalIgnoreCase) ? 2
            : tfm.Contains('.', StringComparison.Ordinal) ? 4
            : 1;
        var digits = Version().Match(tfm);
        var version = digits.Success && double.TryParse(digits.Value, NumberStyles.Float, CultureInfo.InvariantCulture, out var v) ? v : 0;
        return (family, version);
    }

    [GeneratedRegex(@"\(([A-Za-z][A-Za-z0-9.\-]*)\)$")]
    private static partial Regex FrameworkSuffix();

    [GeneratedRegex(@"[0-9]+(\.[0-9]+)?")]
    private static partial Regex Version();
}
