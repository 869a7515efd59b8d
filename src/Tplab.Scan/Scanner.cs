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
        // What the load read (sibling projects' sources, imported props, the config) is never an output.
        ScanInputs.CheckOutputs([("--output", options.Output), ("--write-baseline", options.WriteBaseline), ("--plan", options.PlanFile)], code,
            [("the config read", File.Exists(configPath) ? configPath : null), ("the --baseline read", options.BaselineFile)]);
        foreach (var skipped in code.Skipped)
        {
            progress.Line($"tplab scan: skipped {skipped}");
        }
        if (code.SharedErrors.Count > 0)
        {
            progress.Line("tplab scan: MSBuild errors in several projects: " + SkippedProject.OneLine(code.SharedErrors));
        }
        var result = Analyse(code, options, config, baseline, progress, loaded, cancellationToken);
        // After the analysis: the calls it could not resolve name their projects as read in part too.
        foreach (var inPart in result.ReadInPart)
        {
            progress.Line($"tplab scan: read in part {inPart}");
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
        return result;
    }

    /// <summary>The index of the loaded projects: their compilations, one walk per core, Razor pages read from the disk.</summary>
    internal static SourceIndex Index(LoadedCode code) => new(code.Projects.Select(p => p.Compilation), code.Input.Root)
    {
        Workers = Environment.ProcessorCount,
        OtherFile = path => File.Exists(path) ? File.ReadLines(path) : null,
    };

    /// <summary>The analysis of code already loaded (tests load a fixture once and analyse it under several options).</summary>
    internal static ScanResult Analyse(LoadedCode code, ScanOptions options, ScanConfig config, Baseline baseline, IScanProgress progress, TimeSpan loadTime, CancellationToken cancellationToken)
    {
        var started = options.Time.GetTimestamp();
        progress.Status("finding entry points...");
        var index = Index(code);
        var graph = new CallGraph(index, new BlockingRules(config.Entries(), new Callers(index)));
        var rootSet = RootFinder.Find(index, cancellationToken);
        var roots = rootSet.Roots;
        progress.Status("reading locks...");
        var locks = new LockAnalysis(graph, options.MaxDepth, cancellationToken);
        var builder = new FindingBuilder(graph, locks, rootSet, options.MaxDepth);
        var (findings, suppressed) = builder.Build(progress, cancellationToken);
        // Worst first: severity; then what runs on every request before what runs once (a singleton's constructor
        // reached from hundreds of endpoints still runs once); then how many request paths reach it, how many entry
        // points in all, and where it is.
        IEnumerable<Finding> Ordered(IEnumerable<Finding> list) => list
            .OrderByDescending(f => f.Severity).ThenBy(f => f.RunsOnce).ThenByDescending(f => f.RequestRoots).ThenByDescending(f => f.Roots.Count)
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
            ReadInPart = PartialReads.WithUnknownCalls(code.ReadInPart, code.Projects, graph.UnknownSites),
            SharedErrors = code.SharedErrors,
            RequestCodeRead = roots.Any(ScanResult.IsRequestRoot),
            Unknown = graph.UnknownCalls,
            MaxDepth = options.MaxDepth,
            WalksAtMaxDepth = builder.WalksAtMaxDepth,
        };
    }
}
