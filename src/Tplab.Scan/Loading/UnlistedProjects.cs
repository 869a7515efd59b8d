using System.Globalization;
using System.Xml.Linq;
using Tplab.Common;

namespace Tplab.Scan.Loading;

/// <summary>
/// ASP.NET Core projects under a solution's folder that the solution does not list, nor reference through its projects:
/// modules a host copies beside itself at build time and loads at run time (application parts). The scan reads what the
/// solution lists, so it never sees them; it says so in one line, with how to include them.
/// </summary>
internal static class UnlistedProjects
{
    // Names that are not the application's code even when they use ASP.NET Core (case-sensitive: "Attestation" is not a test).
    private static readonly string[] NotTheApp = ["Test", "Benchmark", "Sample", "Example", "Demo"];

    // More names than this are counted, not listed.
    private const int Named = 5;

    /// <summary>
    /// The line for <paramref name="solution"/> (a .sln or .slnx) listing <paramref name="listed"/>, or null when there is
    /// nothing to say (a .slnf filters on purpose). A project another solution under the folder lists (a samples
    /// solution, a fixture's) is that solution's, not a module of this one.
    /// </summary>
    public static async Task<string?> LineAsync(string solution, IReadOnlyList<string> listed, CancellationToken cancellationToken)
    {
        if (solution.EndsWith(".slnf", StringComparison.OrdinalIgnoreCase))
        {
            return null;
        }
        var folder = Path.GetDirectoryName(solution)!;
        var stem = Path.Combine(folder, Path.GetFileNameWithoutExtension(solution));
        var elsewhere = new List<string>();
        foreach (var other in ScanInput.FindSolutions(folder).Where(s => !string.Equals(Path.Combine(Path.GetDirectoryName(s)!, Path.GetFileNameWithoutExtension(s)), stem, StringComparison.Ordinal)))
        {
            try
            {
                elsewhere.AddRange(await SolutionFile.ProjectsAsync(other, cancellationToken).ConfigureAwait(false));
            }
            catch (TplabException)
            {
                // A solution that does not read claims nothing.
            }
        }
        var names = Find(folder, [.. listed, .. elsewhere]);
        if (names.Count == 0)
        {
            return null;
        }
        var shown = string.Join(", ", names.Take(Named)) + (names.Count > Named ? string.Create(CultureInfo.InvariantCulture, $" and {names.Count - Named} more") : "");
        return string.Create(CultureInfo.InvariantCulture,
            $"tplab scan: not scanned: {names.Count} ASP.NET Core project(s) under its folder that {Path.GetFileName(solution)} does not list nor reference through its projects ({shown}): add them to the solution, or scan a .csproj");
    }

    /// <summary>The names of the ASP.NET Core projects under <paramref name="folder"/> that <paramref name="listed"/> do not reach by their references, by path.</summary>
    public static IReadOnlyList<string> Find(string folder, IReadOnlyList<string> listed)
    {
        var all = ScanInput.FindProjects(folder).Select(p => (Path: p, Root: new ProjectFile(p).Read())).ToList();
        var references = all.ToDictionary(p => p.Path, p => References(p.Path, p.Root).ToList(), StringComparer.Ordinal);
        // What MSBuild loads: the listed projects and every project they reference, through any depth.
        var loaded = new HashSet<string>(StringComparer.Ordinal);
        var pending = new Stack<string>(listed);
        while (pending.TryPop(out var project))
        {
            if (loaded.Add(project) && references.TryGetValue(project, out var referenced))
            {
                referenced.ForEach(pending.Push);
            }
        }
        return [.. all.Where(p => !loaded.Contains(p.Path) && p.Root is { } root && IsAspNetCore(root)
                && !NotTheApp.Any(n => Path.GetFileNameWithoutExtension(p.Path).Contains(n, StringComparison.Ordinal))
                && !new ProjectFile(p.Path).IsTestProject)
            .Select(p => Path.GetFileNameWithoutExtension(p.Path))];
    }

    // The Web or Razor SDK, the ASP.NET Core shared framework, or one of its packages.
    private static bool IsAspNetCore(XElement root) =>
        ((string?)root.Attribute("Sdk") ?? "") is var sdk && (sdk.StartsWith("Microsoft.NET.Sdk.Web", StringComparison.OrdinalIgnoreCase) || sdk.StartsWith("Microsoft.NET.Sdk.Razor", StringComparison.OrdinalIgnoreCase))
        || root.Descendants().Any(e => e.Name.LocalName is "FrameworkReference" or "PackageReference"
            && ((string?)e.Attribute("Include"))?.StartsWith("Microsoft.AspNetCore", StringComparison.OrdinalIgnoreCase) == true);

    private static IEnumerable<string> References(string project, XElement? root) =>
        root is null ? [] : root.Descendants().Where(e => e.Name.LocalName == "ProjectReference")
            .Select(e => (string?)e.Attribute("Include")).OfType<string>().Where(i => !i.Contains('$', StringComparison.Ordinal))
            .Select(i => Path.GetFullPath(Path.Combine(Path.GetDirectoryName(project)!, i.Replace('\\', '/'))));
}
