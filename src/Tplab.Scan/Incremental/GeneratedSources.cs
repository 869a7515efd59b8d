using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace Tplab.Scan.Incremental;

/// <summary>A source a project's generators added at the last load: the tree's path (under the generator's name) and its text.</summary>
internal sealed record CachedGenerated(string Path, string Text);

/// <summary>
/// Which projects of a rebuild run their source generators again (docs/scan.md "What invalidates the cache"): a
/// generator's input is its project's compilation — its own syntax trees, additional files, options and its
/// references' metadata, a referenced project's symbols among them. When only sources' contents changed, a project
/// that neither compiles a changed source nor references (transitively) a project that does has the very input it had
/// at the last load, so its generated sources from then are reused; the others' generators run again.
/// </summary>
internal static class GeneratedSources
{
    /// <summary>
    /// The indexes of the projects whose generators run: those compiling an edited source, every project that
    /// references one of them (directly or not), and those whose generated sources were not recorded (their input is
    /// unchanged all the same, so their dependents' is too).
    /// </summary>
    public static HashSet<int> Rerun(IReadOnlyList<CachedProjectFacts> facts, IReadOnlyCollection<string> edited)
    {
        ArgumentNullException.ThrowIfNull(facts);
        ArgumentNullException.ThrowIfNull(edited);
        var changed = edited.ToHashSet(StringComparer.Ordinal);
        var rerun = Enumerable.Range(0, facts.Count).Where(i => facts[i].Documents.Any(changed.Contains)).ToHashSet();
        for (var grew = true; grew;)
        {
            grew = false;
            for (var i = 0; i < facts.Count; i++)
            {
                if (!rerun.Contains(i) && facts[i].ProjectReferences.Any(r => rerun.Contains(r.Project)))
                {
                    grew = rerun.Add(i);
                }
            }
        }
        rerun.UnionWith(Enumerable.Range(0, facts.Count).Where(i => facts[i].Generated is null));
        return rerun;
    }

    /// <summary>
    /// What the generators added to <paramref name="compilation"/> of <paramref name="project"/>, in order: the trees
    /// after its <paramref name="documents"/> (the workspace adds generated trees after the project's own). Null when
    /// the compilation's first trees are not those documents in order (nothing is recorded then: the generators run next time).
    /// </summary>
    public static IReadOnlyList<CachedGenerated>? Of(Compilation compilation, IReadOnlyList<string?> documents)
    {
        ArgumentNullException.ThrowIfNull(compilation);
        ArgumentNullException.ThrowIfNull(documents);
        var trees = compilation.SyntaxTrees.ToList();
        if (trees.Count < documents.Count || documents.Where((d, i) => d != trees[i].FilePath).Any())
        {
            return null;
        }
        var generated = trees.Skip(documents.Count).ToList();
        return generated.Any(t => !System.IO.Path.IsPathFullyQualified(t.FilePath)) ? null : [.. generated.Select(t => new CachedGenerated(t.FilePath, t.GetText().ToString()))];
    }

    /// <summary>A recorded generated source as a document of the rebuilt project: the same path, text and place among the trees (after the project's own).</summary>
    public static DocumentInfo Document(ProjectId project, CachedGenerated source)
    {
        ArgumentNullException.ThrowIfNull(source);
        var text = TextAndVersion.Create(SourceText.From(source.Text, Encoding.UTF8, SourceHashAlgorithm.Sha256), VersionStamp.Default, source.Path);
        return DocumentInfo.Create(DocumentId.CreateNewId(project, source.Path), System.IO.Path.GetFileName(source.Path), loader: TextLoader.From(text),
            filePath: source.Path, isGenerated: true);
    }

    /// <summary>Null when every recorded source has a full path and a text, else what is wrong.</summary>
    public static string? Invalid(IReadOnlyList<CachedGenerated>? generated) =>
        generated is null || generated.All(g => g is not null && g.Path is not null && System.IO.Path.IsPathFullyQualified(g.Path) && g.Text is not null)
            ? null : "a generated source without its path or text";
}
