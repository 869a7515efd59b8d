using Tplab.Common;

namespace Tplab.Scan.Loading;

/// <summary>What the user pointed <c>tplab scan</c> at, resolved to a solution or to project files.</summary>
/// <param name="Root">The folder paths are reported relative to: the solution's or project's folder, or the folder given.</param>
/// <param name="Solution">The solution file, or null when projects were given or found.</param>
/// <param name="Projects">The project files (a solution's are read from it when it is loaded).</param>
public sealed record ScanInput(string Root, string? Solution, IReadOnlyList<string> Projects)
{
    private static readonly string[] SolutionExtensions = [".sln", ".slnx", ".slnf"];
    private static readonly string[] SkippedFolders = ["bin", "obj", "node_modules", ".git", ".vs", ".idea", "artifacts"];

    /// <summary>The name to print: the solution or project file name, or the folder.</summary>
    public string DisplayName => Solution is not null ? System.IO.Path.GetFileName(Solution)
        : Projects.Count == 1 ? System.IO.Path.GetFileName(Projects[0]) : Root;

    /// <summary>Resolves <paramref name="path"/>; a usage error (exit 2) when there is nothing C# to scan there.</summary>
    public static ScanInput Resolve(string path)
    {
        var full = System.IO.Path.GetFullPath(path);
        if (File.Exists(full))
        {
            var ext = System.IO.Path.GetExtension(full).ToLowerInvariant();
            if (SolutionExtensions.Contains(ext))
            {
                return new ScanInput(System.IO.Path.GetDirectoryName(full)!, full, []);
            }
            if (ext == ".csproj")
            {
                return new ScanInput(System.IO.Path.GetDirectoryName(full)!, null, [full]);
            }
            throw TplabException.Usage($"{path} is not a solution (.sln, .slnx, .slnf), a C# project (.csproj) or a folder");
        }
        if (!Directory.Exists(full))
        {
            throw TplabException.Usage($"no such file or folder: {path}");
        }
        var solutions = SolutionExtensions.Where(e => e != ".slnf")
            .SelectMany(e => Directory.EnumerateFiles(full, "*" + e)).Order(StringComparer.Ordinal).ToList();
        if (solutions.Count == 1)
        {
            return new ScanInput(full, solutions[0], []);
        }
        if (solutions.Count > 1)
        {
            // Tplab.sln beside Tplab.slnx is the same solution in two formats: prefer the newer format's file.
            var stems = solutions.Select(s => System.IO.Path.GetFileNameWithoutExtension(s)).Distinct(StringComparer.Ordinal).ToList();
            if (stems.Count == 1)
            {
                return new ScanInput(full, solutions.First(s => s.EndsWith(".slnx", StringComparison.OrdinalIgnoreCase)), []);
            }
            throw TplabException.Usage($"{path} holds {solutions.Count} solutions ({string.Join(", ", solutions.Select(System.IO.Path.GetFileName))}): name the one to scan");
        }
        var projects = FindProjects(full);
        if (projects.Count > 0)
        {
            return new ScanInput(full, null, projects);
        }
        var anyCSharp = Walk(full).Any(f => f.EndsWith(".cs", StringComparison.OrdinalIgnoreCase));
        throw TplabException.Usage(anyCSharp
            ? $"{path} has C# files but no project (.csproj) to load them with: scan a folder, solution or project that has one"
            : $"no C# project or solution in {path}");
    }

    /// <summary>The .csproj files under <paramref name="folder"/>, build output and dependency folders left out.</summary>
    internal static List<string> FindProjects(string folder) =>
        [.. Walk(folder).Where(f => f.EndsWith(".csproj", StringComparison.OrdinalIgnoreCase)).Order(StringComparer.Ordinal)];

    /// <summary>The .sln and .slnx files under <paramref name="folder"/>, the same folders left out.</summary>
    internal static List<string> FindSolutions(string folder) =>
        [.. Walk(folder).Where(f => f.EndsWith(".sln", StringComparison.OrdinalIgnoreCase) || f.EndsWith(".slnx", StringComparison.OrdinalIgnoreCase)).Order(StringComparer.Ordinal)];

    private static IEnumerable<string> Walk(string folder)
    {
        var pending = new Stack<string>([folder]);
        while (pending.Count > 0)
        {
            var dir = pending.Pop();
            string[] files;
            string[] dirs;
            try
            {
                files = Directory.GetFiles(dir);
                dirs = Directory.GetDirectories(dir);
            }
            catch (Exception e) when (e is UnauthorizedAccessException or IOException)
            {
                continue;
            }
            foreach (var f in files)
            {
                yield return f;
            }
            foreach (var d in dirs)
            {
                var name = System.IO.Path.GetFileName(d);
                // A symlinked folder is not followed: a link to a parent (or two to each other) would walk forever, and
                // one to elsewhere would load the same projects again under other paths.
                if (!SkippedFolders.Contains(name, StringComparer.OrdinalIgnoreCase) && !name.StartsWith('.') && new DirectoryInfo(d).LinkTarget is null)
                {
                    pending.Push(d);
                }
            }
        }
    }
}
