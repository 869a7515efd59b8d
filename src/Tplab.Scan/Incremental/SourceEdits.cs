using Microsoft.CodeAnalysis;
using Tplab.Scan.Loading;

namespace Tplab.Scan.Incremental;

/// <summary>
/// <c>scan --watch</c>'s rebuild after an edit: the loaded solution with the edited files' new text, as an editor's
/// workspace takes a keystroke. Roslyn builds again only what the edit reaches: the changed project's compilation and
/// those that reference it (the others are the same objects, their symbols kept), and its source generators run again
/// incrementally from the state they kept. Nothing is written back to the disk.
/// </summary>
internal static class SourceEdits
{
    /// <summary>
    /// The files of <paramref name="edited"/> that <paramref name="code"/> reads as sources or additional files
    /// (Razor pages), or null with the first change that is not such an edit (an input added, deleted or renamed, a
    /// project, props, restore output, config or baseline changed: a load by MSBuild again).
    /// </summary>
    public static (IReadOnlyList<string>? Edited, string? ReloadBecause) Classify(LoadedCode code, IReadOnlyList<(string Words, string? Edited)> changes)
    {
        ArgumentNullException.ThrowIfNull(code);
        ArgumentNullException.ThrowIfNull(changes);
        var solution = code.Projects.Count > 0 ? code.Projects[0].Project.Solution : null;
        bool Editable((string Words, string? Edited) change) => change.Edited is { } path && solution is not null
            && solution.GetDocumentIdsWithFilePath(path).Any(id => solution.GetDocument(id) is not null || solution.GetAdditionalDocument(id) is not null);
        var first = changes.FirstOrDefault(c => !Editable(c));
        return first.Words is null ? ([.. changes.Select(c => c.Edited!)], null) : (null, first.Words);
    }

    /// <summary><paramref name="code"/> with <paramref name="edited"/> read again from the disk, every analysed project compiled.</summary>
    public static async Task<LoadedCode> ApplyAsync(LoadedCode code, IReadOnlyCollection<string> edited, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(code);
        ArgumentNullException.ThrowIfNull(edited);
        var solution = code.Projects[0].Project.Solution;
        foreach (var path in edited)
        {
            foreach (var id in solution.GetDocumentIdsWithFilePath(path))
            {
                // The loader the workspace used (its encoding detection), so the text is what a fresh load would read.
                var loader = new FileTextLoader(path, defaultEncoding: null);
                solution = solution.GetDocument(id) is not null ? solution.WithDocumentTextLoader(id, loader, PreservationMode.PreserveValue)
                    : solution.GetAdditionalDocument(id) is not null ? solution.WithAdditionalDocumentTextLoader(id, loader, PreservationMode.PreserveValue)
                    : solution;
            }
        }
        return await CompileAsync(code, solution, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// A rebuild of <paramref name="code"/> after an edit that changes nothing (the same text, anew) in the project most
    /// others depend on, its result dropped: the first real edit then finds Roslyn's incremental paths and the source
    /// generators' compiled and tiered up, as they are at every later one (on a 42-project app the first rebuild after
    /// the load cost about five times the CPU of the later ones; BENCHMARKS.md).
    /// </summary>
    public static async Task WarmUpAsync(LoadedCode code, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(code);
        if (code.Projects.Count == 0)
        {
            return;
        }
        var solution = code.Projects[0].Project.Solution;
        var graph = solution.GetProjectDependencyGraph();
        var most = code.Projects.Select(p => p.Project).Where(p => p.DocumentIds.Count > 0)
            .OrderByDescending(p => graph.GetProjectsThatTransitivelyDependOnThisProject(p.Id).Count()).FirstOrDefault();
        if (most?.Documents.FirstOrDefault() is not { } document)
        {
            return;
        }
        var text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
        var same = Microsoft.CodeAnalysis.Text.SourceText.From(text.ToString(), text.Encoding, text.ChecksumAlgorithm);
        await CompileAsync(code, solution.WithDocumentText(document.Id, same, PreservationMode.PreserveValue), cancellationToken).ConfigureAwait(false);
    }

    private static async Task<LoadedCode> CompileAsync(LoadedCode code, Solution solution, CancellationToken cancellationToken)
    {
        var compiled = new Compilation?[code.Projects.Count];
        var parallel = new ParallelOptions { CancellationToken = cancellationToken, MaxDegreeOfParallelism = Environment.ProcessorCount };
        await Parallel.ForEachAsync(Enumerable.Range(0, compiled.Length), parallel, async (i, ct) =>
            compiled[i] = await solution.GetProject(code.Projects[i].Project.Id)!.GetCompilationAsync(ct).ConfigureAwait(false)).ConfigureAwait(false);
        var projects = code.Projects.Select((p, i) => new LoadedProject(solution.GetProject(p.Project.Id)!, compiled[i]!, p.Unresolved)).ToList();
        // The workspace stays with the code MSBuild loaded (its owner disposes it); this is a snapshot of its solution.
        return new LoadedCode(null, code.Input, projects, code.Skipped, code.LeftOutTests, code.ReadInPart) { SharedErrors = code.SharedErrors };
    }
}
