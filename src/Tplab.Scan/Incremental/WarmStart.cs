namespace Tplab.Scan.Incremental;

/// <summary>
/// A scan that starts from the cached projects instead of MSBuild (<see cref="WarmLoad"/>): the projects' facts, the
/// test projects the cached scan left out, the sources edited since, and the time spent checking the cache.
/// </summary>
internal sealed record WarmStart(IReadOnlyList<CachedProjectFacts> Facts, IReadOnlyList<string> LeftOutTests, IReadOnlyList<string> Edited, TimeSpan CheckTime)
{
    /// <summary>The cached scan's walks and result, to walk again only what the edits can affect (null: the cache has no walks).</summary>
    public (CachedWalks Walks, CachedResult Result)? Prior { get; init; }

    /// <summary>
    /// The rule (docs/scan.md "What invalidates the cache"): the changed sources when every change is to the contents of
    /// a <c>.cs</c> file that a cached project compiles, which no project, props, targets, restore output, reference,
    /// analyzer, config, baseline or folder listing (a file added, deleted or renamed) is; else the first change that
    /// is not (a full scan).
    /// </summary>
    public static (IReadOnlyList<string>? Edited, string? FullBecause) Of(ScanCacheFile cache, IReadOnlyList<(string Words, string? Edited)> changes)
    {
        ArgumentNullException.ThrowIfNull(cache);
        ArgumentNullException.ThrowIfNull(changes);
        var sources = (cache.Projects ?? []).SelectMany(p => p.Documents).ToHashSet(StringComparer.Ordinal);
        bool Source((string Words, string? Edited) change) => change.Edited is { } path && path.EndsWith(".cs", StringComparison.Ordinal) && sources.Contains(path);
        var first = changes.FirstOrDefault(c => !Source(c)).Words ?? (cache.Projects is null ? changes[0].Words : null);
        return first is null ? ([.. changes.Select(c => c.Edited!)], null)
            : (null, first + " since the cached scan" + (changes.Count > 1 ? $" (and {changes.Count - 1} other change(s))" : ""));
    }
}
