using System.Text.RegularExpressions;
using Tplab.Common;
using Tplab.Scan.Loading;

namespace Tplab.Scan;

/// <summary>
/// Every file <c>scan</c> and <c>fix</c> read, known once the projects are loaded: the solution and project files,
/// every source, additional file and editorconfig of each project (wherever it lies: a sibling folder the solution
/// lists, a source included by absolute path), the props and targets MSBuild imports beside and above each project
/// (<c>Directory.Build.props</c>, <c>Directory.Packages.props</c>, an <c>Import</c> by path), and the config, baseline
/// and report the command reads. An output (<c>-o</c>, <c>--write-baseline</c>, <c>--plan</c>) that is one of them
/// under any name (a symbolic link, <c>..</c>, another case on a case-insensitive disk: the same file) is a usage
/// error before anything is written (<see cref="OutputPaths"/>). The check before the load covers what the command
/// line names; this one covers what the load found.
/// </summary>
public static partial class ScanInputs
{
    // What MSBuild imports on its own from a project's folder and every folder above it.
    private static readonly string[] Implicit =
        ["Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props", "Directory.Solution.props", "Directory.Solution.targets", "global.json", "NuGet.config", "nuget.config"];

    /// <summary>Refuses an output of <paramref name="outputs"/> (option, path; null: none) that is one of the inputs of <paramref name="code"/> or of <paramref name="others"/>.</summary>
    public static void CheckOutputs(IReadOnlyList<(string Option, string? Path)> outputs, LoadedCode code, IReadOnlyList<(string What, string? Path)> others)
    {
        ArgumentNullException.ThrowIfNull(outputs);
        ArgumentNullException.ThrowIfNull(code);
        ArgumentNullException.ThrowIfNull(others);
        var written = outputs.Where(o => o.Path is not null and not "-").Select(o => (o.Option, Path: o.Path!)).ToList();
        if (written.Count == 0)
        {
            return;
        }
        var inputs = Of(code).Concat(others.Where(o => o.Path is not null).Select(o => (o.What, Path: o.Path!))).ToList();
        var projects = code.Projects.Select(p => p.Project.FilePath).OfType<string>().Distinct(StringComparer.Ordinal).ToList();
        OutputPaths.Check(written, inputs, projects);
    }

    /// <summary>The files the loaded code was read from, each described as the error says it.</summary>
    public static IEnumerable<(string What, string Path)> Of(LoadedCode code)
    {
        ArgumentNullException.ThrowIfNull(code);
        if (code.Input.Solution is { } solution)
        {
            yield return ("the solution read", solution);
        }
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var project in code.Projects.Select(p => p.Project))
        {
            if (project.FilePath is not { } file)
            {
                continue;
            }
            yield return ($"the project read ({Path.GetFileName(file)})", file);
            var documents = project.Documents.Select(d => d.FilePath)
                .Concat(project.AdditionalDocuments.Select(d => d.FilePath))
                .Concat(project.AnalyzerConfigDocuments.Select(d => d.FilePath));
            foreach (var document in documents.OfType<string>().Where(seen.Add))
            {
                yield return ($"a source of the project {Path.GetFileNameWithoutExtension(file)}", document);
            }
            foreach (var import in Imports(file).Where(seen.Add))
            {
                yield return ($"a file MSBuild imports for {Path.GetFileNameWithoutExtension(file)}", import);
            }
        }
    }

    // The implicit imports in the project's folder and above, and the project's own Import elements that name a path.
    private static IEnumerable<string> Imports(string project)
    {
        for (var folder = Path.GetDirectoryName(Path.GetFullPath(project)); !string.IsNullOrEmpty(folder); folder = Path.GetDirectoryName(folder))
        {
            foreach (var name in Implicit)
            {
                var path = Path.Combine(folder, name);
                if (File.Exists(path))
                {
                    yield return path;
                }
            }
        }
        string text;
        try
        {
            text = File.ReadAllText(project);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            yield break;
        }
        foreach (Match m in ImportElement().Matches(text))
        {
            var named = m.Groups[1].Value.Replace("$(MSBuildThisFileDirectory)", "", StringComparison.OrdinalIgnoreCase);
            if (!named.Contains("$(", StringComparison.Ordinal) && !named.Contains('*', StringComparison.Ordinal))
            {
                yield return Path.GetFullPath(Path.Combine(Path.GetDirectoryName(Path.GetFullPath(project))!, named.Replace('\\', '/')));
            }
        }
    }

    [GeneratedRegex(@"<Import\b[^>]*\bProject\s*=\s*""([^""]+)""", RegexOptions.IgnoreCase)]
    private static partial Regex ImportElement();
}
