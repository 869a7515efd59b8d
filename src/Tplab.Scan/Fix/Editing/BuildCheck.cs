using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace Tplab.Scan.Fix.Editing;

/// <summary>
/// The build decides: the compiler's diagnostics of every project a fix touches, and of every project that depends on
/// one, under each project's own settings (warnings as errors included), compared with the same projects before any
/// fix. An error the fix adds refuses it; the warnings it adds that matter to async code (CS4014 unobserved task,
/// CS1998 async without await) are listed. With <paramref name="analyzers"/> (<c>--analyzers</c>) the project's own
/// analyzers run too, before and after, and every warning they add is listed (an error they add refuses the fix, as
/// <c>dotnet build</c> would fail on it).
/// </summary>
internal sealed class BuildCheck(Solution original, string root, bool analyzers = false)
{
    private static readonly HashSet<string> AsyncWarnings = new(StringComparer.Ordinal) { "CS4014", "CS1998" };
    private readonly Dictionary<ProjectId, List<Diagnostic>> _before = [];

    /// <summary>The first error of <paramref name="project"/> before any fix, or null when it compiles.</summary>
    public async Task<string?> ErrorBeforeAsync(ProjectId project, CancellationToken cancellationToken)
    {
        var before = await BeforeAsync(project, cancellationToken).ConfigureAwait(false);
        return before.FirstOrDefault(d => d.Severity == DiagnosticSeverity.Error) is { } e ? Format(e) : null;
    }

    /// <summary>The first error <paramref name="changed"/> adds, and the async warnings it adds.</summary>
    public async Task<(string? Error, IReadOnlyList<string> Warnings)> CheckAsync(Solution changed, Solution previous, CancellationToken cancellationToken)
    {
        var touched = changed.GetChanges(previous).GetProjectChanges().Select(p => p.ProjectId).ToHashSet();
        var graph = changed.GetProjectDependencyGraph();
        var affected = touched.Concat(touched.SelectMany(graph.GetProjectsThatTransitivelyDependOnThisProject)).Distinct().ToList();
        var warnings = new List<string>();
        foreach (var id in affected)
        {
            var project = changed.GetProject(id);
            if (project is null || await project.GetCompilationAsync(cancellationToken).ConfigureAwait(false) is not { } compilation)
            {
                continue;
            }
            var before = Keys(await BeforeAsync(id, cancellationToken).ConfigureAwait(false));
            foreach (var d in await DiagnosticsAsync(project, compilation, cancellationToken).ConfigureAwait(false))
            {
                var key = Key(d);
                if (before.TryGetValue(key, out var n) && n > 0)
                {
                    before[key] = n - 1;
                    continue;
                }
                if (d.Severity == DiagnosticSeverity.Error)
                {
                    return (Format(d), warnings);
                }
                if (AsyncWarnings.Contains(d.Id) || (analyzers && !d.Id.StartsWith("CS", StringComparison.Ordinal)))
                {
                    warnings.Add(Format(d));
                }
            }
        }
        return (null, warnings);
    }

    private async Task<List<Diagnostic>> BeforeAsync(ProjectId id, CancellationToken cancellationToken)
    {
        if (!_before.TryGetValue(id, out var list))
        {
            var project = original.GetProject(id);
            var compilation = project is null ? null : await project.GetCompilationAsync(cancellationToken).ConfigureAwait(false);
            list = compilation is null ? [] : [.. await DiagnosticsAsync(project!, compilation, cancellationToken).ConfigureAwait(false)];
            _before[id] = list;
        }
        return list;
    }

    // The compiler's warnings and errors, and with --analyzers the project's analyzers' under its own options (.editorconfig, severities).
    private async Task<IReadOnlyList<Diagnostic>> DiagnosticsAsync(Project project, Compilation compilation, CancellationToken cancellationToken)
    {
        var found = compilation.GetDiagnostics(cancellationToken).Where(d => d.Severity >= DiagnosticSeverity.Warning).ToList();
        var all = analyzers ? project.AnalyzerReferences.SelectMany(r => r.GetAnalyzers(project.Language)).ToImmutableArray() : [];
        if (!all.IsEmpty)
        {
            var withAnalyzers = compilation.WithAnalyzers(all, project.AnalyzerOptions);
            found.AddRange((await withAnalyzers.GetAnalyzerDiagnosticsAsync(cancellationToken).ConfigureAwait(false)).Where(d => d.Severity >= DiagnosticSeverity.Warning));
        }
        return found;
    }

    // A diagnostic as it survives line shifts: its id, message, file and the code it points at (two awaits with the same
    // message are told apart by their text, whatever order the analyzers reported them in).
    private static string Key(Diagnostic d) =>
        $"{d.Id}|{d.GetMessage(System.Globalization.CultureInfo.InvariantCulture)}|{d.Location.SourceTree?.FilePath}|{d.Location.SourceTree?.GetText().ToString(d.Location.SourceSpan)}";

    private static Dictionary<string, int> Keys(IEnumerable<Diagnostic> diagnostics) =>
        diagnostics.GroupBy(Key).ToDictionary(g => g.Key, g => g.Count(), StringComparer.Ordinal);

    private string Format(Diagnostic d)
    {
        var span = d.Location.GetLineSpan();
        var where = d.Location.IsInSource ? $"{Path.GetRelativePath(root, span.Path).Replace('\\', '/')}:{span.StartLinePosition.Line + 1}: " : "";
        return $"{where}{d.Id} {d.GetMessage(System.Globalization.CultureInfo.InvariantCulture)}";
    }
}
