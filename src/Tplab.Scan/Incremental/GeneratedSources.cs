using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace Tplab.Scan.Incremental;

/// <summary>A source a project's generators added at the last load: the tree's path (under the generator's name) and its text.</summary>
internal sealed record CachedGenerated(string Path, string Text);

/// <summary>
/// Which projects of a rebuild run their source generators again (docs/scan.md "What invalidates the cache"): a
/// generator's input is its project's compilation — its own syntax trees, additional files, options and its
/// references' metadata, a referenced project's symbols among them. When only sources' contents changed, a project that
/// compiles a changed source runs its generators again; a project that references one (directly or not) runs them
/// again only when what that project declares changed: a source's <see cref="DeclarationSurface"/> or its generated
/// sources. An edit inside bodies leaves every referencing project the input it had at the last load, as a build's
/// reference assembly does (MSBuild does not recompile a project's dependents then), so their generated sources from
/// then are reused.
/// </summary>
internal static class GeneratedSources
{
    /// <summary>The indexes of the projects compiling an edited source (their generators always run).</summary>
    public static HashSet<int> Compiling(IReadOnlyList<CachedProjectFacts> facts, IReadOnlyCollection<string> edited)
    {
        ArgumentNullException.ThrowIfNull(facts);
        ArgumentNullException.ThrowIfNull(edited);
        var changed = edited.ToHashSet(StringComparer.Ordinal);
        return [.. Enumerable.Range(0, facts.Count).Where(i => facts[i].Documents.Any(changed.Contains))];
    }

    /// <summary>
    /// The indexes of the projects whose generators run: <paramref name="compiling"/>, every project that references
    /// (directly or not) one of <paramref name="declaring"/> (those whose declarations changed), and those whose
    /// generated sources were not recorded (their input is unchanged all the same, so their dependents' is too).
    /// </summary>
    public static HashSet<int> Rerun(IReadOnlyList<CachedProjectFacts> facts, IEnumerable<int> compiling, IEnumerable<int> declaring)
    {
        ArgumentNullException.ThrowIfNull(facts);
        var rerun = compiling.ToHashSet();
        var reached = declaring.ToHashSet();
        for (var grew = true; grew;)
        {
            grew = false;
            for (var i = 0; i < facts.Count; i++)
            {
                if (!reached.Contains(i) && facts[i].ProjectReferences.Any(r => reached.Contains(r.Project)))
                {
                    grew = reached.Add(i);
                }
            }
        }
        rerun.UnionWith(reached);
        rerun.UnionWith(Enumerable.Range(0, facts.Count).Where(i => facts[i].Generated is null));
        return rerun;
    }

    /// <summary>
    /// Whether a project rebuilt after an edit declares something else than at the last load (<paramref name="recorded"/>):
    /// a source's <see cref="DeclarationSurface"/> is not the recorded one, or its generators added other sources or texts (or
    /// either was not recorded, or cannot be read now: <paramref name="surfaces"/> or <paramref name="generated"/> null).
    /// </summary>
    public static bool Declares(CachedProjectFacts recorded, IReadOnlyList<string>? surfaces, IReadOnlyList<CachedGenerated>? generated)
    {
        ArgumentNullException.ThrowIfNull(recorded);
        return !recorded.DeclarationsRecorded || surfaces is null || generated is null
            || !surfaces.SequenceEqual(recorded.Surfaces!, StringComparer.Ordinal)
            // The same sources, in whatever order the generators added them this time (the Razor generator's varies).
            || !generated.OrderBy(g => g.Path, StringComparer.Ordinal).SequenceEqual(recorded.Generated!.OrderBy(g => g.Path, StringComparer.Ordinal));
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
