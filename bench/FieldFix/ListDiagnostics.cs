using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.MSBuild;

/// <summary>
/// <c>FieldFix --list SOLUTION ANALYZER_DIR ID...</c>: the field's analyzers run through Roslyn on a solution that cannot be
/// built (issue 26: "run their analyzer DLLs through Roslyn where a build is impossible"). Every C# project's
/// compilation, as MSBuildWorkspace loads it (a project whose packages did not all restore is read as far as it binds),
/// gets the analyzers of every DLL in ANALYZER_DIR (e.g. Microsoft.VisualStudio.Threading.Analyzers'
/// analyzers/cs folder) whatever the project references. Prints one line per diagnostic of the IDs, <c>ID\tFILE\tLINE</c>
/// (the file relative to the solution's folder), and per project a line on stderr.
/// </summary>
internal static class ListDiagnostics
{
    public static async Task<int> RunAsync(string solutionPath, string analyzerFolder, IReadOnlySet<string> ids)
    {
        var loader = new Loader();
        var analyzers = Directory.EnumerateFiles(analyzerFolder, "*.dll")
            .SelectMany(p => new AnalyzerFileReference(Path.GetFullPath(p), loader).GetAnalyzers(LanguageNames.CSharp))
            .Where(a => a.SupportedDiagnostics.Any(d => ids.Contains(d.Id))).ToImmutableArray();
        if (analyzers.IsEmpty)
        {
            Console.Error.WriteLine($"FieldFix: no analyzer in {analyzerFolder} reports {string.Join(", ", ids)}");
            return 2;
        }
        using var workspace = MSBuildWorkspace.Create();
        var solution = await workspace.OpenSolutionAsync(Path.GetFullPath(solutionPath));
        var root = Path.GetDirectoryName(Path.GetFullPath(solutionPath))!;
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var project in solution.Projects.Where(p => p.Language == LanguageNames.CSharp))
        {
            var compilation = await project.GetCompilationAsync();
            if (compilation is null)
            {
                continue;
            }
            var diagnostics = await compilation.WithAnalyzers(analyzers, project.AnalyzerOptions).GetAnalyzerDiagnosticsAsync();
            var mine = diagnostics.Where(d => ids.Contains(d.Id) && d.Location.IsInSource).ToList();
            Console.Error.WriteLine($"FieldFix: {project.Name}: {mine.Count} diagnostics");
            foreach (var d in mine)
            {
                var line = $"{d.Id}\t{Path.GetRelativePath(root, d.Location.SourceTree!.FilePath)}\t{d.Location.GetLineSpan().StartLinePosition.Line + 1}";
                if (seen.Add(line))
                {
                    Console.WriteLine(line);
                }
            }
        }
        return 0;
    }

    private sealed class Loader : IAnalyzerAssemblyLoader
    {
        public void AddDependencyLocation(string fullPath)
        {
        }

        public System.Reflection.Assembly LoadFromPath(string fullPath) => System.Reflection.Assembly.LoadFrom(fullPath);
    }
}
