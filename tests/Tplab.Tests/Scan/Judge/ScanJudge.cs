using Tplab.Tests.Scan.Truth;

namespace Tplab.Tests.Scan.Judge;

/// <summary>Which of a log's results speak for one tool: rule ids, exact or as a prefix ending in '*'; none given: every result.</summary>
internal sealed record RuleFilter(IReadOnlyList<string> Patterns)
{
    public static RuleFilter All { get; } = new([]);

    /// <summary>"VSTHRD002,VSTHRD103" or "TPL*"; empty or "*": all.</summary>
    public static RuleFilter Parse(string text) =>
        new([.. text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Where(p => p != "*")]);

    public bool Accepts(string ruleId) =>
        Patterns.Count == 0 || Patterns.Any(p => p.EndsWith('*') ? ruleId.StartsWith(p[..^1], StringComparison.Ordinal) : ruleId == p);

    public IEnumerable<SarifResult> Apply(IEnumerable<SarifResult> results) => results.Where(r => Accepts(r.RuleId));

    public override string ToString() => Patterns.Count == 0 ? "all" : string.Join(", ", Patterns);
}

/// <summary>What the truth says about a flagged line.</summary>
internal enum SpotKind
{
    /// <summary>On a call site of a blocking root's true chain: the claim is right.</summary>
    OnChain,

    /// <summary>On a waste root's chain only (<c>await Task.Run(cheap)</c>): neither right nor false.</summary>
    Neutral,

    /// <summary>On no true chain: a false claim.</summary>
    False,
}

/// <summary>One line a tool flagged (several results on the same line of the same file count once) and its judgement.</summary>
/// <param name="Roots">The roots whose chains pass this line.</param>
/// <param name="Trap">The clean root whose trap this line is, when it is one.</param>
internal sealed record FlaggedSpot(string File, int Line, IReadOnlyList<string> Rules, SpotKind Kind, IReadOnlyList<string> Roots, string? Trap)
{
    public override string ToString() => $"{File}:{Line} {string.Join('/', Rules)}";
}

/// <summary>What a tool said about one root: the rules that flagged a line of its chains (a clean root: of its traps).</summary>
/// <param name="Level">The level of the first result that found it (error, warning, note).</param>
/// <param name="ChainShown">A result's code flow passes every call site of one of the root's true chains, in order.</param>
internal sealed record RootOutcome(TruthRoot Root, IReadOnlyList<string> Rules, string? Level, bool ChainShown)
{
    public bool Flagged => Rules.Count > 0;
}

/// <summary>One tool's score on one app.</summary>
internal sealed record AppScore(string Tool, TruthApp App, IReadOnlyList<RootOutcome> Roots, IReadOnlyList<FlaggedSpot> Spots)
{
    public int Blocking => Roots.Count(r => r.Root.Verdict == Verdict.Blocking);

    public int Found => Roots.Count(r => r.Root.Verdict == Verdict.Blocking && r.Flagged);

    public int OnChain => Spots.Count(s => s.Kind == SpotKind.OnChain);

    public int False => Spots.Count(s => s.Kind == SpotKind.False);

    public int CleanRootsFlagged => Roots.Count(r => r.Root.Verdict == Verdict.Clean && r.Flagged);

    public int ChainsShown => Roots.Count(r => r.Root.Verdict == Verdict.Blocking && r.ChainShown);
}

/// <summary>
/// Scores one tool's results on one app against the truth. A blocking root is found when one of the tool's results
/// has its primary location on a call site of one of the root's true chains (the root's own call, any helper's call,
/// the blocking call: generous to tools that flag only the line they understand). A flagged line on no true chain is
/// a false one; lines on a waste root's chain count neither way. Only the primary location is judged, for every tool
/// alike; a tool's code flows are judged apart (<see cref="RootOutcome.ChainShown"/>), never counted as findings.
/// </summary>
internal static class ScanJudge
{
    public static AppScore Score(string tool, TruthApp app, IEnumerable<SarifResult> results)
    {
        var located = results.Where(r => r.Spot is { StartLine: > 0 }).ToList();
        var spots = located
            .GroupBy(r => (File: FileOf(app, r.Spot!.Path), r.Spot!.StartLine))
            .Select(g => Judge(app, g.Key.File, g.Key.StartLine, g.Max(r => r.Spot!.EndLine), g))
            .OrderBy(s => s.File, StringComparer.Ordinal).ThenBy(s => s.Line)
            .ToList();
        var roots = app.Roots.Select(root => Outcome(root, located)).ToList();
        return new AppScore(tool, app, roots, spots);
    }

    /// <summary>Whether a path from a log names a repository-relative file: equal, or one ends with the other at a '/'.</summary>
    public static bool SameFile(string logPath, string repoRelative) =>
        logPath == repoRelative
        || logPath.EndsWith("/" + repoRelative, StringComparison.Ordinal)
        || repoRelative.EndsWith("/" + logPath, StringComparison.Ordinal);

    private static bool Covers(SourceSpot spot, CallSite site) =>
        site.Line >= spot.StartLine && site.Line <= Math.Max(spot.StartLine, spot.EndLine) && SameFile(spot.Path, site.File);

    /// <summary>The truth's name of the file, else the path from the app's folder on (a scratch copy's prefix dropped), else the path as logged.</summary>
    private static string FileOf(TruthApp app, string logPath)
    {
        var known = app.Roots.SelectMany(r => r.ChainSites.Concat(r.Traps)).Select(s => s.File).FirstOrDefault(f => SameFile(logPath, f));
        if (known is not null)
        {
            return known;
        }
        var inApp = logPath.IndexOf("/" + app.Folder + "/", StringComparison.Ordinal);
        return inApp >= 0 ? logPath[(inApp + 1)..] : logPath;
    }

    private static FlaggedSpot Judge(TruthApp app, string file, int startLine, int endLine, IEnumerable<SarifResult> results)
    {
        var spot = new SourceSpot(file, startLine, endLine);
        var rules = results.Select(r => r.RuleId).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal).ToList();
        var blocking = app.Roots.Where(r => r.Verdict == Verdict.Blocking && r.ChainSites.Any(s => Covers(spot, s))).Select(r => r.Case).ToList();
        if (blocking.Count > 0)
        {
            return new FlaggedSpot(file, startLine, rules, SpotKind.OnChain, blocking, null);
        }
        var waste = app.Roots.Where(r => r.Verdict == Verdict.Waste && r.ChainSites.Any(s => Covers(spot, s))).Select(r => r.Case).ToList();
        var trap = app.Roots.FirstOrDefault(r => r.Traps.Any(s => Covers(spot, s)))?.Case;
        return new FlaggedSpot(file, startLine, rules, waste.Count > 0 ? SpotKind.Neutral : SpotKind.False, waste, trap);
    }

    private static RootOutcome Outcome(TruthRoot root, IReadOnlyList<SarifResult> results)
    {
        IEnumerable<CallSite> sites = root.Verdict == Verdict.Clean ? root.Traps : root.ChainSites;
        var hits = results.Where(r => sites.Any(s => Covers(r.Spot!, s))).ToList();
        var chainShown = root.Verdict != Verdict.Clean && hits.Any(r => r.Flows.Any(flow => root.Chains.Any(chain => Follows(flow, chain))));
        return new RootOutcome(root, [.. hits.Select(r => r.RuleId).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal)], hits.FirstOrDefault()?.Level, chainShown);
    }

    /// <summary>Every call site of the chain appears in the flow, in the chain's order (the flow may hold more steps).</summary>
    private static bool Follows(IReadOnlyList<SourceSpot> flow, IReadOnlyList<CallSite> chain)
    {
        var at = 0;
        foreach (var site in chain)
        {
            while (at < flow.Count && !Covers(flow[at], site))
            {
                at++;
            }
            if (at == flow.Count)
            {
                return false;
            }
        }
        return true;
    }
}
