using Microsoft.CodeAnalysis;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Incremental;

/// <summary>
/// What the edits since a cached scan touched, as <see cref="FactDependencies"/> tokens: the edited files; the callers
/// of every method name a cached read depended on whose calls are in an edited file, before or after the edit (the
/// cached scan's call sites, and this scan's, found by name); a fact of an edited file's project.
/// </summary>
internal sealed class EditedTokens
{
    private readonly HashSet<string> _dirty;
    private readonly HashSet<string> _projects;

    public EditedTokens(PriorScan scan, SourceIndex index)
    {
        var edited = scan.Edited.ToHashSet(StringComparer.Ordinal);
        Trees = [.. index.Trees.Where(t => edited.Contains(t.FilePath))];
        Files = Trees.Select(t => WalkKeys.FileOf(t, index)).ToHashSet(StringComparer.Ordinal);
        _projects = Trees.Select(t => index.CompilationOf(t).AssemblyName ?? "").ToHashSet(StringComparer.Ordinal);
        _dirty = new HashSet<string>(edited.Select(FactDependencies.FileToken), StringComparer.Ordinal);
        foreach (var calls in scan.Walks.Calls)
        {
            var constructor = calls.Token.StartsWith("new:", StringComparison.Ordinal);
            var name = calls.Token[(calls.Token.IndexOf(':', StringComparison.Ordinal) + 1)..];
            if (calls.Files.Concat(index.Callers.FilesCalling(name, constructor)).Any(edited.Contains))
            {
                _dirty.Add(calls.Token);
            }
        }
    }

    /// <summary>The edited sources as this scan parsed them.</summary>
    public IReadOnlyList<SyntaxTree> Trees { get; }

    /// <summary>The edited sources as keys name their files (<see cref="WalkKeys.FileOf(string)"/>).</summary>
    public IReadOnlySet<string> Files { get; }

    /// <summary>Whether a read that depended on <paramref name="token"/> may read otherwise now.</summary>
    public bool Dirty(string token) => _dirty.Contains(token)
        || (token.StartsWith("project:", StringComparison.Ordinal) && _projects.Contains(token[(token.LastIndexOf(':') + 1)..]));
}
