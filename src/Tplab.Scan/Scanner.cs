using Tplab.Scan.Config;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Incremental;
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
        // git is asked before anything loads: a ref that does not exist fails in a second, not after the load.
        var changed = options.ChangedSince is { } reference ? await ChangedFiles.SinceAsync(input.Root, reference, cancellationToken).ConfigureAwait(false) : default;
        var cache = options.Cache ? new ScanCache(options, input, configPath) : null;
        var outputs = new (string Option, string? Path)[] { ("--output", options.Output), ("--write-baseline", options.WriteBaseline), ("--plan", options.PlanFile) };
        // A plan reads the code itself (parameters, attributes): it never takes a cached result.
        var (result, warm) = options.PlanFile is null && cache is not null ? cache.TryReuse(outputs, progress) : default;
        result ??= await FullAsync(options, input, cache, warm, outputs, progress, cancellationToken).ConfigureAwait(false);
        if (changed.Files is { } files)
        {
            var all = result.Findings.Count;
            result = ChangedSince.Filter(result, files);
            progress.Line(ChangedSince.Line(options.ChangedSince!, changed.MergeBase, files.Count, result.Findings.Count, all));
        }
        return result;
    }

    private static async Task<ScanResult> FullAsync(ScanOptions options, ScanInput input, ScanCache? cache, WarmStart? warm,
        IReadOnlyList<(string Option, string? Path)> outputs, IScanProgress progress, CancellationToken cancellationToken)
    {
        var baseline = options.BaselineFile is { } b ? Baseline.Read(b) : new Baseline();

        // The file system's clock, not a duration: an input written after this instant may not be in the result.
        var startedUtc = TimeProvider.System.GetUtcNow().UtcDateTime;
        var started = options.Time.GetTimestamp();
        // Sources edited, nothing else: the projects rebuilt from the cache (what MSBuild computed has not changed).
        using var load = (warm is not null ? await ScanCache.WarmAsync(input, options, warm, progress, cancellationToken).ConfigureAwait(false) : null)
            ?? await LoadAsync(input, options, "tplab scan", outputs, [("the --baseline read", options.BaselineFile)], progress, cancellationToken).ConfigureAwait(false);
        var loaded = options.Time.GetElapsedTime(started) + (warm?.CheckTime ?? TimeSpan.Zero);
        if (options.Verbose)
        {
            progress.Line(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"tplab scan: loaded in {loaded.TotalSeconds:0.00} s"));
        }
        var code = load.Code;
        var result = Analyse(code, options, load.Config, baseline, progress, loaded, cancellationToken);
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
            foreach (var detail in code.Skipped.Concat(result.ReadInPart).SelectMany(p => p.Details.Select(d => $"tplab scan:   {p.Name}: {d}")))
            {
                progress.Line(detail);
            }
        }
        cache?.Save(code, result, startedUtc, progress, load.Facts);
        return result;
    }

    // --verbose: what the process holds after each stage (what grows with the solution's size; BENCHMARKS.md).
    private static void Memory(ScanOptions options, IScanProgress progress, string stage, ref long since)
    {
        if (options.Verbose)
        {
            using var self = System.Diagnostics.Process.GetCurrentProcess();
            progress.Line(string.Create(System.Globalization.CultureInfo.InvariantCulture,
                $"tplab scan: memory after {stage} ({options.Time.GetElapsedTime(since).TotalSeconds:0.00} s): {GC.GetTotalMemory(false) / 1048576} MB managed, {self.WorkingSet64 / 1048576} MB resident, {self.PeakWorkingSet64 / 1048576} MB peak; {CpuSinceStart(self)}"));
            since = options.Time.GetTimestamp();
        }
    }

    /// <summary>--verbose's "N s CPU since the start": the process's CPU so far, the same words after every stage.</summary>
    internal static string CpuSinceStart(System.Diagnostics.Process self) =>
        string.Create(System.Globalization.CultureInfo.InvariantCulture,
            $"{self.TotalProcessorTime.TotalSeconds:0.00} s CPU since the start ({System.Runtime.JitInfo.GetCompilationTime().TotalSeconds:0.00} s of it compiling {System.Runtime.JitInfo.GetCompiledMethodCount():N0} methods, {GC.CollectionCount(0)} GCs)");

    /// <summary>
    /// The load scan and fix share: the config file (<c>--config</c>, else <c>tplab-scan.json</c> at the root; read
    /// first, so a bad one fails before MSBuild starts), the projects, the outputs held against every file the load read
    /// (sources, imported props, the config, <paramref name="reads"/>), and the projects skipped said as
    /// <paramref name="command"/>.
    /// </summary>
    internal static async Task<ScanLoad> LoadAsync(ScanInput input, ScanOptions options, string command, IReadOnlyList<(string Option, string? Path)> outputs,
        IReadOnlyList<(string What, string? Path)> reads, IScanProgress progress, CancellationToken cancellationToken)
    {
        var configPath = options.ConfigFile ?? Path.Combine(input.Root, ScanConfig.DefaultFileName);
        var read = File.Exists(configPath) ? configPath : null;
        var config = read is not null ? ScanConfig.Read(read) : new ScanConfig();
        var code = await WorkspaceLoader.LoadAsync(input, options, progress, cancellationToken).ConfigureAwait(false);
        try
        {
            // What the load read (sibling projects' sources, imported props, the config) is never an output.
            ScanInputs.CheckOutputs(outputs, code, [("the config read", read), .. reads]);
        }
        catch
        {
            code.Dispose();
            throw;
        }
        foreach (var skipped in code.Skipped)
        {
            progress.Line($"{command}: skipped {skipped}");
        }
        if (code.SharedErrors.Count > 0)
        {
            progress.Line($"{command}: MSBuild errors in several projects: " + SkippedProject.OneLine(code.SharedErrors));
        }
        return new ScanLoad(config, code);
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
        var stage = started;
        progress.Status("finding entry points...");
        var index = Index(code);
        var graph = new CallGraph(index, new BlockingRules(config.Entries(), index.Callers));
        Memory(options, progress, "the load and the index", ref stage);
        var rootSet = RootFinder.Find(index, cancellationToken);
        var roots = rootSet.Roots;
        Memory(options, progress, "finding entry points", ref stage);
        progress.Status("reading locks...");
        var locks = new LockAnalysis(graph, options.MaxDepth, cancellationToken);
        Memory(options, progress, "reading locks", ref stage);
        var builder = new FindingBuilder(graph, locks, rootSet, options.MaxDepth);
        var (findings, suppressed) = builder.Build(progress, cancellationToken);
        Memory(options, progress, "following calls", ref stage);
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
            ReadInPart = PartialReads.WithUnknownCalls(code.ReadInPart, code.Projects, graph.UnknownSites, cancellationToken),
            SharedErrors = code.SharedErrors,
            RequestCodeRead = roots.Any(ScanResult.IsRequestRoot),
            Unknown = graph.UnknownCalls,
            MaxDepth = options.MaxDepth,
            WalksAtMaxDepth = builder.WalksAtMaxDepth,
        };
    }
}
