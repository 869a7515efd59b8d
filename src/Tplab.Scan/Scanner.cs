using System.Globalization;
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
        return Analyse(code, options, config, baseline, progress, loaded, cancellationToken);
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
        // Entry points are walked in parallel: binding method bodies is the cost, and Roslyn's models are thread-safe.
        var perRoot = new List<Finding>[roots.Count];
        var done = 0;
        Parallel.For(0, roots.Count, new ParallelOptions { CancellationToken = cancellationToken }, i =>
        {
            perRoot[i] = [.. builder.For(roots[i])];
            var n = Interlocked.Increment(ref done);
            progress.Status(string.Create(CultureInfo.InvariantCulture, $"following calls: {n}/{roots.Count} entry points, {graph.NodesRead} methods read"));
        });
        var findings = perRoot.SelectMany(f => f).ToList();
        progress.Status("");
        var ordered = findings
            .Select(f => baseline.Contains(f.Key) ? f with { Baselined = true } : f)
            .OrderBy(f => f.Root.Key, StringComparer.Ordinal).ThenByDescending(f => f.Severity).ThenBy(f => f.Site.File, StringComparer.Ordinal).ThenBy(f => f.Site.Line)
            .ToList();
        return new ScanResult(
            code.Input,
            [.. ordered.Where(f => f.Suppression is null)],
            [.. ordered.Where(f => f.Suppression is not null)],
            [.. code.Projects.Select(p => p.Name)],
            code.Skipped,
            code.LeftOutTests,
            roots.Count,
            graph.NodesRead,
            loadTime,
            options.Time.GetElapsedTime(started));
    }
}
