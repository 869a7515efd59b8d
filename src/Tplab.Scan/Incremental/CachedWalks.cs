using System.Security.Cryptography;
using System.Text;
using Tplab.Blocking;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Roots;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Incremental;

/// <summary>
/// The walks of a scan as the cache keeps them (<see cref="ScanCacheFile.Walks"/>): every entry point (<see cref="Roots"/>,
/// in the scan's order, each as everything a walk from it reads of it), what the walks share that the whole solution
/// decides (<see cref="Global"/>: DI's registrations, the types the code creates, the locks held around slow work), each
/// entry point's walk (<see cref="CachedWalk"/>), the chains the findings show, the site of each cached finding, and the
/// files that call each method whose callers a walk read. Strings are kept once, in <see cref="Keys"/>.
/// After an edit inside bodies, <see cref="Prior"/> names the entry points to walk again: those whose walks depend on an
/// edited file (<see cref="WalkRecord.Depends"/>); with anything else changed, the analysis is whole.
/// </summary>
internal sealed record CachedWalks(
    IReadOnlyList<string> Roots,
    string Global,
    IReadOnlyList<string> Keys,
    IReadOnlyList<CachedWalk> Walks,
    IReadOnlyList<CachedView> Views,
    IReadOnlyList<int> FindingSites,
    IReadOnlyList<int> EntryRoots,
    IReadOnlyList<CachedCalls> Calls,
    CachedRoots? RootSet = null)
{
    /// <summary>The entry points as a walk reads them: the key, place and node, what the reports say of them, and the factories DI runs for them.</summary>
    public static IReadOnlyList<string> Signatures(RootSet set, SourceIndex index) => [.. set.Roots.Select(r => Signature(set, r, index))];

    /// <summary>The <paramref name="cached"/> signatures of a revived <paramref name="set"/>: those that name an edited file made again (its entry points moved).</summary>
    public static IReadOnlyList<string> Signatures(IReadOnlyList<string> cached, RootSet set, EditedTokens edits, SourceIndex index) =>
        [.. cached.Select((s, i) => edits.Files.Any(f => s.Contains(f, StringComparison.Ordinal)) ? Signature(set, set.Roots[i], index) : s)];

    /// <summary>One entry point's part of <see cref="Signatures(RootSet, SourceIndex)"/>.</summary>
    public static string Signature(RootSet set, EntryPoint r, SourceIndex index) =>
        string.Join("\u001f",
            r.Key, r.Place.ToString(), WalkKeys.Node(r.Node, index), r.Endpoint?.ToString() ?? "", string.Join("\u001e", r.Guards), r.Lifetime ?? "", r.Service ?? "", r.SetAs ?? "",
            r.Controller is { } c ? SymbolNames.MetadataName(c) : "",
            string.Join("\u001e", set.Injected(r).Select(i => WalkKeys.Node(i.Factory.Node, index) + " " + i.Parameter.Name + " " + i.Parameter.Ordinal.ToString(System.Globalization.CultureInfo.InvariantCulture))));

    /// <summary>What every walk shares that the whole solution decides, hashed: the registry's facts and the slow lock holders.</summary>
    public static string GlobalOf(SourceIndex index, LockAnalysis locks) =>
        Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(string.Join('\n', index.Services.Facts().Concat(locks.Facts(index))))));

    /// <summary>The walks of a scan to cache: its <paramref name="builder"/>'s records and chains, and the site of each of <paramref name="findings"/> (the result's, then its suppressed ones).</summary>
    public static CachedWalks From(IReadOnlyList<string> roots, string global, FindingBuilder builder, IReadOnlyList<string> findingSites, IReadOnlyList<int> entryRoots, Callers callers,
        CachedRoots? rootSet)
    {
        var keys = new List<string>();
        var ids = new Dictionary<string, int>(StringComparer.Ordinal);
        int Id(string key)
        {
            if (!ids.TryGetValue(key, out var id))
            {
                id = ids[key] = keys.Count;
                keys.Add(key);
            }
            return id;
        }
        var walks = builder.Records.Select(r => new CachedWalk(
            [.. r.Order.Select(Id)], r.Cut,
            [.. r.Hits.Select(h => new CachedHit(Id(h.Site), h.Hit.Severity, h.Hit.Depth, h.Hit.Cost, h.Hit.Ignored, h.Hit.EveryRequest, [.. h.Way.Select(Id)]))],
            [.. r.Unknown.OrderBy(u => u.Key, StringComparer.Ordinal).Select(u => new CachedUnknown(Id(u.Key), [.. u.Value.Select(Id)]))],
            [.. r.Depends.Select(Id)])).ToList();
        var views = builder.Views.OrderBy(v => v.Key.Root).ThenBy(v => v.Key.Site, StringComparer.Ordinal)
            .Select(v => new CachedView(v.Key.Root, Id(v.Key.Site), v.Value.Severity, v.Value.Chain, v.Value.Context, v.Value.Reasons, v.Value.Advice, v.Value.Suppression, v.Value.Dispatch, v.Value.RunsOnce))
            .ToList();
        var sites = findingSites.Select(Id).ToList();
        var calls = builder.Records.SelectMany(r => r.Depends).Concat(rootSet?.Depends ?? []).Where(t => t.StartsWith("call:", StringComparison.Ordinal) || t.StartsWith("new:", StringComparison.Ordinal))
            .Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal)
            .Select(t => new CachedCalls(t, callers.FilesCalling(t[(t.IndexOf(':', StringComparison.Ordinal) + 1)..], t.StartsWith("new:", StringComparison.Ordinal)))).ToList();
        return new CachedWalks(roots, global, keys, walks, views, sites, entryRoots, calls, rootSet);
    }

    /// <summary>
    /// This record, or the first thing in it no scan writes (an index out of range, a missing list) as a reason; its
    /// result has <paramref name="findings"/> findings (suppressed ones too) naming <paramref name="entries"/> entry points.
    /// </summary>
    public string? Invalid(int findings, int entries)
    {
        bool Key(int i) => i >= 0 && i < (Keys?.Count ?? 0);
        bool Root(int i) => i >= 0 && i < (Roots?.Count ?? 0);
        bool Keyed(IReadOnlyList<int>? list) => list is not null && list.All(Key);
        return Roots is null || Roots.Any(r => r is null) || Global is null || Keys is null || Keys.Any(k => k is null) || Keys.Distinct(StringComparer.Ordinal).Count() != Keys.Count ? "the walks' names are missing"
            : Walks is null || Walks.Count != Roots.Count || !Walks.All(w => w is not null && Keyed(w.Order) && Keyed(w.Depends)
                && w.Hits is not null && w.Hits.All(h => h is not null && Key(h.Site) && Enum.IsDefined(h.Severity) && h.Depth >= 0 && h.Cost >= 0 && Keyed(h.Way) && h.Way.Count > 0)
                && w.Unknown is not null && w.Unknown.All(u => u is not null && Key(u.Node) && Keyed(u.Places)) && w.Unknown.DistinctBy(u => u.Node).Count() == w.Unknown.Count)
                ? "a walk is incomplete"
            : Views is null || !Views.All(v => v is not null && Root(v.Root) && Key(v.Site) && Enum.IsDefined(v.Severity) && v.Chain is { Count: > 0 } && v.Chain.All(h => h is not null)
                && v.Reasons is not null && v.Reasons.All(r => r is not null) && v.Advice is not null) || Views.DistinctBy(v => (v.Root, v.Site)).Count() != Views.Count
                ? "a chain is incomplete"
            : FindingSites is null || FindingSites.Count != findings || !FindingSites.All(Key) ? "a finding's site is missing"
            : EntryRoots is null || EntryRoots.Count != entries || !EntryRoots.All(Root) ? "an entry point is missing"
            : Calls is null || !Calls.All(c => c is not null && c.Token is not null && c.Files is not null && c.Files.All(f => f is not null)) ? "the callers are incomplete"
            : RootSet?.Invalid() is { } roots ? roots
            : RootSet is not null && RootSet.Roots.Count != Roots.Count ? "an entry point is missing"
            : null;
    }

    /// <summary>The walks as records again, in the roots' order.</summary>
    public IReadOnlyList<WalkRecord> Records() => [.. Walks.Select(w => new WalkRecord(
        [.. w.Order.Select(i => Keys[i])], w.Cut,
        [.. w.Hits.Select(h => new WalkHit(Keys[h.Site], new SiteHit(0, h.Severity, h.Depth, h.Cost, h.Ignored) { EveryRequest = h.EveryRequest }, [.. h.Way.Select(i => Keys[i])]))],
        w.Unknown.ToDictionary(u => Keys[u.Node], u => (IReadOnlyList<string>)[.. u.Places.Select(i => Keys[i])], StringComparer.Ordinal),
        [.. w.Depends.Select(i => Keys[i])]))];
}

/// <summary>One entry point's walk (<see cref="WalkRecord"/>), by indexes into <see cref="CachedWalks.Keys"/>.</summary>
internal sealed record CachedWalk(IReadOnlyList<int> Order, bool Cut, IReadOnlyList<CachedHit> Hits, IReadOnlyList<CachedUnknown> Unknown, IReadOnlyList<int> Depends);

internal sealed record CachedHit(int Site, Severity Severity, int Depth, int Cost, bool Ignored, bool EveryRequest, IReadOnlyList<int> Way);

internal sealed record CachedUnknown(int Node, IReadOnlyList<int> Places);

/// <summary>A chain a finding shows (<see cref="RootView"/>), from the entry point at <paramref name="Root"/> to the site keyed <paramref name="Site"/>.</summary>
internal sealed record CachedView(int Root, int Site, Severity Severity, IReadOnlyList<ChainHop> Chain, CallContext Context, IReadOnlyList<string> Reasons, string Advice,
    string? Suppression, string? Dispatch, bool RunsOnce);

/// <summary>The files that call methods named as <paramref name="Token"/> says (<see cref="FactDependencies.CallToken"/>).</summary>
internal sealed record CachedCalls(string Token, IReadOnlyList<string> Files);
