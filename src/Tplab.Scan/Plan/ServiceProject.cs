using Tplab.Common;
using Tplab.Scan.Findings;

namespace Tplab.Scan.Plan;

/// <summary>
/// The ASP.NET Core project a plan runs: the web project (<c>Sdk="Microsoft.NET.Sdk.Web"</c>) holding the flagged
/// roots; with several, the one holding the most findings.
/// </summary>
internal static class ServiceProject
{
    /// <summary>The project file, and the findings whose roots it holds.</summary>
    public static (string Project, IReadOnlyList<Finding> Findings) Choose(IReadOnlyList<Finding> findings)
    {
        var byProject = findings
            .Select(f => (Finding: f, Project: ProjectOf(f.Root.Node.Syntax.SyntaxTree.FilePath)))
            .Where(x => x.Project is not null && IsWeb(x.Project))
            .GroupBy(x => x.Project!, StringComparer.Ordinal)
            .OrderByDescending(g => g.Count()).ThenBy(g => g.Key, StringComparer.Ordinal)
            .FirstOrDefault();
        return byProject is null
            ? throw TplabException.Usage("--plan: no flagged entry point is in an ASP.NET Core project (Sdk=\"Microsoft.NET.Sdk.Web\"), so there is no service to run")
            : (byProject.Key, [.. byProject.Select(x => x.Finding)]);
    }

    // The nearest folder above the source file that holds a project file.
    private static string? ProjectOf(string sourceFile)
    {
        for (var dir = Path.GetDirectoryName(sourceFile); !string.IsNullOrEmpty(dir); dir = Path.GetDirectoryName(dir))
        {
            var projects = Directory.Exists(dir) ? Directory.GetFiles(dir, "*.csproj") : [];
            if (projects.Length > 0)
            {
                return projects.Order(StringComparer.Ordinal).First();
            }
        }
        return null;
    }

    private static bool IsWeb(string project)
    {
        try
        {
            return File.ReadAllText(project).Contains("Microsoft.NET.Sdk.Web", StringComparison.OrdinalIgnoreCase);
        }
        catch (IOException)
        {
            return false;
        }
    }
}
