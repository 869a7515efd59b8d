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
        var prior = warm?.Prior is { } p && load.Facts is not null ? new PriorScan(p.Walks, p.Result, warm.Edited, load.BodiesOnly) : null;
        var result = Analyse(code, options, load.Config, baseline, progress, loaded, cancellationToken, prior);
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

    /// <summary>
    /// The analysis of code already loaded (tests load a fixture once and analyse it under several options); with a
    /// <paramref name="prior"/> scan, only the entry points an edit can affect are walked again (<see cref="IncrementalWalks"/>).
    /// </summary>
    internal static ScanResult Analyse(LoadedCode code, ScanOptions options, ScanConfig config, Baseline baseline, IScanProgress progress, TimeSpan loadTime, CancellationToken cancellationToken,
        PriorScan? prior = null)
    {
        var started = options.Time.GetTimestamp();
        var stage = started;
        progress.Status("finding entry points...");
        var index = Index(code);
        var graph = new CallGraph(index, new BlockingRules(config.Entries(), index.Callers));
        Memory(options, progress, "the load and the index", ref stage);
        // After edits inside bodies that no registration or read of the root finder touches, the cached entry points.
        var edits = prior is null ? null : new EditedTokens(prior, index);
        var cachedRoots = prior?.Walks.RootSet;
        var (rootSet, because) = cachedRoots is not null ? cachedRoots.Revive(prior!, edits!, index) : default;
        var revived = rootSet is not null;
        // The entry points as the cached scan read them (their signatures its own, those in an edited file keyed where
        // they are now), or found again.
        IReadOnlyList<string>? signatures = null;
        if (rootSet is null)
        {
            if (because is not null && options.Verbose)
            {
                progress.Line($"tplab scan: entry points found again: {because}");
            }
            var (found, read) = FactDependencies.Noting(() => RootFinder.Find(index, cancellationToken));
            (rootSet, cachedRoots) = (found, CachedRoots.From(found, read, index));
        }
        else
        {
            (signatures, cachedRoots) = (CachedWalks.Signatures(prior!.Walks.Roots, rootSet, edits!, index), cachedRoots!.Moved(rootSet, edits!, index));
            if (options.Verbose)
            {
                progress.Line("tplab scan: entry points as cached: no edit touched a registration or what they were read from");
            }
        }
        var roots = rootSet.Roots;
        Memory(options, progress, "finding entry points", ref stage);
        progress.Status("reading locks...");
        var locks = new LockAnalysis(graph, options.MaxDepth, cancellationToken);
        Memory(options, progress, "reading locks", ref stage);
        signatures ??= CachedWalks.Signatures(rootSet, index);
        var global = CachedWalks.GlobalOf(index, locks);
        Memory(options, progress, "reading DI's registrations", ref stage);
        var (earlier, fullBecause) = prior is null ? default : IncrementalWalks.Of(prior, edits!, rootSet, index, signatures, global, revived);
        if (fullBecause is not null)
        {
            progress.Line($"tplab scan: every entry point walked again: {fullBecause}");
        }
        var builder = new FindingBuilder(graph, locks, rootSet, options.MaxDepth, earlier) { KeepsWalks = true };
        List<Finding> findings, suppressed;
        try
        {
            (findings, suppressed) = builder.Build(progress, cancellationToken);
        }
        catch (PriorWalksMismatch e)
        {
            progress.Line($"tplab scan: every entry point walked again: {e.Message}");
            builder = new FindingBuilder(graph, locks, rootSet, options.MaxDepth) { KeepsWalks = true };
            (findings, suppressed) = builder.Build(progress, cancellationToken);
        }
        if (earlier is not null && options.Verbose)
        {
            progress.Line(string.Create(System.Globalization.CultureInfo.InvariantCulture,
                $"tplab scan: {earlier.Affected.Count} of {roots.Count} entry point(s) walked again (their walks depend on an edited file); the others' walks as cached"));
        }
        Memory(options, progress, "following calls", ref stage);
        // Worst first: severity; then what runs on every request before what runs once (a singleton's constructor
        // reached from hundreds of endpoints still runs once); then how many request paths reach it, how many entry
        // points in all, and where it is.
        IEnumerable<Finding> Ordered(IEnumerable<Finding> list) => list
            .OrderByDescending(f => f.Severity).ThenBy(f => f.RunsOnce).ThenByDescending(f => f.RequestRoots).ThenByDescending(f => f.Roots.Count)
            .ThenBy(f => f.Site.File, StringComparer.Ordinal).ThenBy(f => f.Site.Line).ThenBy(f => f.Site.Column).ThenBy(f => f.Id, StringComparer.Ordinal);
        var shown = Ordered(findings).ToList();
        var hidden = Ordered(suppressed).ToList();
        // What the walks followed: the methods, and the calls in them source could not resolve (each place once).
        var followed = builder.Records.SelectMany(r => r.Order).Distinct(StringComparer.Ordinal).Count();
        var unknown = builder.Records.SelectMany(r => r.Unknown.Values).SelectMany(p => p).Distinct(StringComparer.Ordinal)
            .Select(p => Path.GetFullPath(Path.Combine(code.Input.Root, p.Split('|')[1]))).ToList();
        var result = new ScanResult(
            code.Input,
            [.. shown.Select(f => baseline.Contains(f.Key) ? f with { Baselined = true } : f with { Baselined = false })],
            hidden,
            [.. code.Projects.Select(p => p.Name)],
            code.Skipped,
            code.LeftOutTests,
            roots.Count,
            followed,
            loadTime,
            options.Time.GetElapsedTime(started))
        {
            // After edits inside bodies, the names each project does not resolve are the cached scan's (read from declarations).
            ReadInPart = PartialReads.WithUnknownCalls(code.ReadInPart, code.Projects, unknown, cancellationToken,
                prior is { BodiesOnly: true } ? PartialReads.NamesOf(prior.Result.ReadInPart.Select(p => (p.Name, p.Details))) : null),
            SharedErrors = code.SharedErrors,
            RequestCodeRead = roots.Any(ScanResult.IsRequestRoot),
            Unknown = unknown.Count,
            MaxDepth = options.MaxDepth,
            WalksAtMaxDepth = builder.WalksAtMaxDepth,
        };
        var rootIndex = new Dictionary<EntryPoint, int>(ReferenceEqualityComparer.Instance);
        for (var i = 0; i < roots.Count; i++)
        {
            rootIndex[roots[i]] = i;
        }
        return result with
        {
            Walks = CachedWalks.From(signatures, global, builder, [.. shown.Concat(hidden).Select(f => builder.SiteKeys[f])],
                [.. CachedResult.EntryOrder(result).Select(e => rootIndex[e])], index.Callers, cachedRoots),
        };
    }
}
