using Tplab.Scan.Config;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Loading;
using Tplab.Scan.Roots;
using Tplab.Scan.Rules;

namespace Tplab.Scan;

/// <summary>
/// <c>tplab scan</c>: loads the solution with Roslyn, finds where requests and the pool enter its code, follows the
/// calls from there through the solution's own source, and reports every blocking call reached, with its chain.
/// </summary>
public static class Scanner
{
    public static async Task<ScanResult> ScanAsync(ScanOptions options, IScanProgress progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(progress);
        options = options.Validated();
        var input = ScanInput.Resolve(options.Path);
        var configPath = options.ConfigFile ?? Path.Combine(input.Root, ScanConfig.DefaultFileName);
        var config = File.Exists(configPath) ? ScanConfig.Read(configPath) : new ScanConfig();
        var baseline = options.BaselineFile is { } b ? Baseline.Read(b) : new Baseline();

        var started = options.Time.GetTimestamp();
        using var code = await WorkspaceLoader.LoadAsync(input, options, progress, cancellationToken).ConfigureAwait(false);
        var loaded = options.Time.GetElapsedTime(started);
        foreach (var skipped in code.Skipped)
        {
            progress.Line($"tplab scan: skipped {skipped}");
        }
        foreach (var inPart in code.ReadInPart)
        {
            progress.Line($"tplab scan: read in part {inPart}");
        }
        if (code.SharedErrors.Count > 0)
        {
            progress.Line("tplab scan: MSBuild errors in several projects: " + SkippedProject.OneLine(code.SharedErrors));
        }
        if (options.Verbose)
        {
            foreach (var error in code.SharedErrors)
            {
                progress.Line($"tplab scan:   (several projects): {error}");
            }
            foreach (var detail in code.Skipped.Concat(code.ReadInPart).SelectMany(p => p.Details.Select(d => $"tplab scan:   {p.Name}: {d}")))
            {
                progress.Line(detail);
            }
        }
        return Analyse(code, options, config, baseline, progress, loaded, cancellationToken);
    }

    /// <summary>
    /// The sites one entry point reaches (its key, <see cref="Roots.EntryPoint.Key"/>), each with that entry point's own
    /// chain, severity and reasons: a site's other ways in, rebuilt on demand (a report shows only the worst one's chain).
    /// </summary>
    internal static IReadOnlyList<Finding> From(LoadedCode code, ScanConfig config, string rootKey, int maxDepth, CancellationToken cancellationToken)
    {
        var index = new SourceIndex(code);
        var graph = new CallGraph(index, new BlockingRules(config.Entries(), new Callers(index)));
        var rootSet = RootFinder.Find(index, cancellationToken);
        var root = rootSet.Roots.FirstOrDefault(r => r.Key == rootKey) ?? throw new ArgumentException($"no entry point {rootKey}", nameof(rootKey));
        return new FindingBuilder(graph, new LockAnalysis(graph, maxDepth, cancellationToken), rootSet, maxDepth).For(root);
    }

    /// <summary>The analysis of code already loaded (tests load a fixture once and analyse it under several options).</summary>
    internal static ScanResult Analyse(LoadedCode code, ScanOptions options, ScanConfig config, Baseline baseline, IScanProgress progress, TimeSpan loadTime, CancellationToken cancellationToken)
    {
        var started = options.Time.GetTimestamp();
        progress.Status("finding entry points...");
        var index = new SourceIndex(code);
        var graph = new CallGraph(index, new BlockingRules(config.Entries(), new Callers(index)));
        var rootSet = RootFinder.Find(index, cancellationToken);
        var roots = rootSet.Roots;
        progress.Status("reading locks...");
        var locks = new LockAnalysis(graph, options.MaxDepth, cancellationToken);
        var builder = new FindingBuilder(graph, locks, rootSet, options.MaxDepth);
        var (findings, suppressed) = builder.Build(progress, cancellationToken);
        // Worst first: severity, then how many entry points reach the site, then where it is.
        IEnumerable<Finding> Ordered(IEnumerable<Finding> list) => list
            .OrderByDescending(f => f.Severity).ThenByDescending(f => f.Roots.Count)
            .ThenBy(f => f.Site.File, StringComparer.Ordinal).ThenBy(f => f.Site.Line).ThenBy(f => f.Site.Column).ThenBy(f => f.Id, StringComparer.Ordinal);
        return new ScanResult(
            code.Input,
            [.. Ordered(findings).Select(f => baseline.Contains(f.Key) ? f with { Baselined = true } : f)],
            [.. Ordered(suppressed)],
            [.. code.Projects.Select(p => p.Name)],
            code.Skipped,
            code.LeftOutTests,
            roots.Count,
            graph.NodesRead,
            loadTime,
            options.Time.GetElapsedTime(started))
        {
            ReadInPart = code.ReadInPart,
            SharedErrors = code.SharedErrors,
            RequestCodeRead = roots.Any(ScanResult.IsRequestRoot),
            Unknown = graph.UnknownCalls,
            MaxDepth = options.MaxDepth,
            WalksAtMaxDepth = builder.WalksAtMaxDepth,
        };
    }
}
