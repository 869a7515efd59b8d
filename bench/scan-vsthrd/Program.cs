using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.MSBuild;

// Usage: ScanVsthrd SOLUTION ANALYZER_FOLDER ID...   e.g. ScanVsthrd Jellyfin.sln ~/.nuget/packages/microsoft.visualstudio.threading.analyzers/18.12.1/analyzers/cs VSTHRD002 VSTHRD103
// Test projects (a name ending in Tests or Test, or referencing xunit/nunit/MSTest) are left out, as tplab scan leaves them out.
if (args.Length < 3)
{
    Console.Error.WriteLine("usage: ScanVsthrd SOLUTION ANALYZER_FOLDER DIAGNOSTIC_ID...");
    return 2;
}
var solutionPath = Path.GetFullPath(args[0]);
var root = Path.GetDirectoryName(solutionPath)!;
var ids = args[2..].ToHashSet(StringComparer.Ordinal);
var loader = new AnalyzerAssemblyLoader();
var analyzers = Directory.EnumerateFiles(args[1], "*.dll")
    .Select(p => new AnalyzerFileReference(p, loader))
    .SelectMany(r => r.GetAnalyzers(LanguageNames.CSharp))
    .Where(a => a.SupportedDiagnostics.Any(d => ids.Contains(d.Id)))
    .ToImmutableArray();
Console.Error.WriteLine($"analyzers: {string.Join(", ", analyzers.Select(a => a.GetType().Name))}");
using var workspace = MSBuildWorkspace.Create();
var solution = await workspace.OpenSolutionAsync(solutionPath);
var seen = new HashSet<string>(StringComparer.Ordinal);
var lines = new SortedSet<string>(StringComparer.Ordinal);
foreach (var project in solution.Projects.Where(p => p.Language == LanguageNames.CSharp))
{
    if (project.FilePath is not { } path || !seen.Add(path) || IsTest(project))
    {
        continue;
    }
    var compilation = await project.GetCompilationAsync();
    if (compilation is null)
    {
        continue;
    }
    // The rules raised to warnings, as a user switching them on in .editorconfig would.
    var options = compilation.Options.WithSpecificDiagnosticOptions(
        compilation.Options.SpecificDiagnosticOptions.SetItems(ids.Select(id => KeyValuePair.Create(id, ReportDiagnostic.Warn))));
    var diagnostics = await compilation.WithOptions(options).WithAnalyzers(analyzers, project.AnalyzerOptions).GetAnalyzerDiagnosticsAsync();
    foreach (var d in diagnostics.Where(d => ids.Contains(d.Id) && d.Location.IsInSource))
    {
        var span = d.Location.GetLineSpan();
        lines.Add($"{Path.GetRelativePath(root, span.Path).Replace('\\', '/')}:{span.StartLinePosition.Line + 1}:{span.StartLinePosition.Character + 1}:{d.Id}");
    }
    Console.Error.WriteLine($"{project.Name}: {diagnostics.Count(d => ids.Contains(d.Id))}");
}
foreach (var line in lines)
{
    Console.WriteLine(line);
}
return 0;

static bool IsTest(Project project) =>
    project.Name.EndsWith("Tests", StringComparison.Ordinal) || project.Name.EndsWith("Test", StringComparison.Ordinal)
    || project.MetadataReferences.OfType<PortableExecutableReference>().Select(r => Path.GetFileNameWithoutExtension(r.FilePath ?? ""))
        .Any(n => n is "xunit.core" or "xunit.v3.core" or "nunit.framework" or "Microsoft.VisualStudio.TestPlatform.TestFramework" or "MSTest.TestFramework");

internal sealed class AnalyzerAssemblyLoader : IAnalyzerAssemblyLoader
{
    public void AddDependencyLocation(string fullPath)
    {
    }

    public System.Reflection.Assembly LoadFromPath(string fullPath) => System.Reflection.Assembly.LoadFrom(fullPath);
}
