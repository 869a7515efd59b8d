using System.Globalization;
using System.Text;
using System.Text.Json;
using Tplab.Common;
using Tplab.Common.Json;
using Tplab.Scan.Loading;

namespace Tplab.Scan.Incremental;

/// <summary>
/// <c>scan --cache DIR</c>: a scan whose inputs (<see cref="CacheInputs"/>), tplab build and result-changing options are
/// those of the cached one reuses its result without loading MSBuild; anything else is a full scan, said in one line
/// when a cache was there (which input changed, another build or options, a file that does not read). The cache is
/// written after a scan whose load read every project in full (calls that did not resolve aside), and never when an input changed while it ran.
/// </summary>
internal sealed class ScanCache(ScanOptions options, ScanInput input, string configPath)
{
    /// <summary>Where the cache lives: <c>--cache DIR</c>, else <c>obj/tplab-scan/</c> under the scanned root.</summary>
    public string Folder { get; } = options.CacheFolder ?? Path.Combine(input.Root, "obj", "tplab-scan");

    public string File => Path.Combine(Folder, ScanCacheFile.FileName);

    // The inputs as the check found them (hashed): what the cache written after a rebuild records of those not written since.
    private readonly Dictionary<string, CachedInput> _hashed = new(StringComparer.Ordinal);

    // Another build of tplab (a new version, or the same version rebuilt with other code) may judge the same code
    // differently: the modules' ids change with their content.
    internal static string Tool => string.Join(' ', new[] { typeof(ScanCache), typeof(ExitCodes), typeof(Microsoft.CodeAnalysis.Compilation) }
        .Select(t => $"{t.Assembly.GetName().Name}/{t.Assembly.GetName().Version}/{t.Assembly.ManifestModule.ModuleVersionId:N}"));

    // Everything on the command line that changes the result (the format, --top, --fail-on and the like only change
    // what is printed or the exit code, computed again from the result).
    internal string Options => string.Join('\n',
        "root=" + input.Root, "solution=" + input.Solution, "projects=" + string.Join('|', input.Projects),
        "include-tests=" + options.IncludeTests, "restore=" + options.Restore, "max-depth=" + options.MaxDepth.ToString(CultureInfo.InvariantCulture),
        "config=" + Path.GetFullPath(configPath), "baseline=" + (options.BaselineFile is { } b ? Path.GetFullPath(b) : ""));

    /// <summary>
    /// The cached result when nothing it depends on changed; the cached projects to rebuild without MSBuild when only
    /// the contents of their <c>.cs</c> sources changed (<see cref="WarmLoad"/>); else neither, with one line saying why
    /// when there was a cache.
    /// </summary>
    /// <remarks>An output among the cached inputs is refused as a full scan would refuse it (exit 2).</remarks>
    public (ScanResult? Result, WarmStart? Warm) TryReuse(IReadOnlyList<(string Option, string? Path)> outputs, IScanProgress progress)
    {
        ArgumentNullException.ThrowIfNull(outputs);
        ArgumentNullException.ThrowIfNull(progress);
        if (!System.IO.File.Exists(File) && !Directory.Exists(File))
        {
            return default;
        }
        var started = options.Time.GetTimestamp();
        // A rebuild may follow: its workspace services are composed meanwhile.
        WarmLoad.Prepare();
        var (cache, problem) = Read(File);
        var reason = problem
            ?? (cache!.SchemaVersion != ScanCacheFile.Version ? "the cache is in another format version"
            : cache.Tool != Tool ? "the cache was written by another build of tplab"
            : cache.Options != Options ? "the cache was written for another path or other options (--include-tests, --no-restore, --max-depth, --config, --baseline)"
            // Only the scanned folder and the projects' folders are listed: a cache that names another (the disk's root) is not one tplab wrote.
            : cache.Listings.Any(l => l.Folder != input.Root && !cache.Inputs.Any(i => i.Path.EndsWith(".csproj", StringComparison.OrdinalIgnoreCase) && Path.GetDirectoryName(i.Path) == l.Folder))
                ? "the cache is damaged (a folder listed that is not a project's)"
            : null);
        var changes = reason is null ? CacheInputs.Changes(cache!.Inputs, cache.Listings, input.Root, _hashed) : [];
        var (edited, fullBecause) = changes.Count > 0 ? WarmStart.Of(cache!, changes) : default;
        reason ??= fullBecause;
        if (reason is not null)
        {
            progress.Line($"tplab scan: full scan: {reason} ({File})");
            return default;
        }
        OutputPaths.Check([.. outputs.Where(o => o.Path is not null and not "-").Select(o => (o.Option, o.Path!))],
            [.. cache!.Inputs.Where(i => i.Size >= 0).Select(i => ("a file the scan reads", i.Path))], []);
        var checkTime = options.Time.GetElapsedTime(started);
        if (options.Verbose)
        {
            // The CLI's start, the cache's read and the inputs' hashing: the part of a rebuilt or reused scan before any code is read.
            using var self = System.Diagnostics.Process.GetCurrentProcess();
            progress.Line(string.Create(CultureInfo.InvariantCulture, $"tplab scan: cache checked in {checkTime.TotalSeconds:0.00} s ({cache!.Inputs.Count} inputs, {cache.Listings.Count} folder listings); {Scanner.CpuSinceStart(self)}"));
        }
        if (edited is not null)
        {
            progress.Line(string.Create(CultureInfo.InvariantCulture,
                $"tplab scan: {edited.Count} source file(s) changed since the cached scan ({string.Join(", ", changes.Take(3).Select(c => c.Words.Replace(" changed", "", StringComparison.Ordinal)))}{(changes.Count > 3 ? ", ..." : "")}): projects rebuilt from the cache without MSBuild, everything analysed again (checked in {checkTime.TotalSeconds:0.00} s)"));
            return (null, new WarmStart(cache.Projects!, cache.Result.LeftOutTests, edited, checkTime) { Prior = cache.Walks is { } walks ? (walks, cache.Result) : null });
        }
        var result = cache.Result.ToResult(checkTime);
        progress.Line(string.Create(CultureInfo.InvariantCulture,
            $"tplab scan: reused the cached scan ({File}): none of its {cache.Inputs.Count} input file(s) changed; checked in {result.LoadTime.TotalSeconds:0.00} s"));
        foreach (var inPart in result.ReadInPart)
        {
            progress.Line($"tplab scan: read in part {inPart}");
        }
        return (result, null);
    }

    /// <summary>The load of a warm start (the config read as a full load reads it), or null, said in one line, when the rebuild is refused.</summary>
    internal static async Task<ScanLoad?> WarmAsync(ScanInput input, ScanOptions options, WarmStart warm, IScanProgress progress, CancellationToken cancellationToken)
    {
        var configPath = options.ConfigFile ?? Path.Combine(input.Root, Config.ScanConfig.DefaultFileName);
        var config = System.IO.File.Exists(configPath) ? Config.ScanConfig.Read(configPath) : new Config.ScanConfig();
        progress.Status("rebuilding the projects from the cache...");
        var (loaded, refused) = await WarmLoad.LoadAsync(input, warm.Facts, warm.LeftOutTests, warm.Edited, cancellationToken).ConfigureAwait(false);
        if (loaded is null)
        {
            progress.Line($"tplab scan: full scan: the projects could not be rebuilt without MSBuild: {refused}");
            return null;
        }
        if (options.Verbose)
        {
            var kept = loaded.DeclarationOnlyKept > 0
                ? string.Create(CultureInfo.InvariantCulture, $"; in {loaded.DeclarationOnlyKept} edited inside bodies only, the generators that read declarations only (Razor, regular expressions, JSON, logging, options, interop) kept theirs")
                : "";
            progress.Line(string.Create(CultureInfo.InvariantCulture,
                $"tplab scan: source generators run again in {loaded.GeneratorsRun} of {warm.Facts.Count} project(s) (those compiling a changed source, and those referencing one whose declarations changed); the others' generated sources reused{kept}"));
        }
        return new ScanLoad(config, loaded.Code) { Facts = loaded.Facts, BodiesOnly = loaded.BodiesOnly };
    }

    /// <summary>The cache file read whole and checked (<see cref="CachedResult.Invalid"/>), or why it cannot be used.</summary>
    internal static (ScanCacheFile? Cache, string? Problem) Read(string file)
    {
        var (key, noKey) = CacheSeal.Key();
        return key is null ? (null, noKey) : Read(file, key);
    }

    /// <summary><see cref="Read(string)"/> under <paramref name="key"/>: the seal checked before a byte of the cache is believed.</summary>
    internal static (ScanCacheFile? Cache, string? Problem) Read(string file, byte[] key)
    {
        ScanCacheFile cache;
        try
        {
            var (payload, unsealed) = CacheSeal.Open(key, InputFile.ReadBytes(file, "the scan cache", InputLimit.ScanCache));
            if (unsealed is not null)
            {
                return (null, unsealed);
            }
            cache = TplabJson.Read(Encoding.UTF8.GetString(payload.Span), ScanCacheJsonContext.Compact.ScanCacheFile, "the scan cache", "the scan cache is not JSON");
        }
        catch (TplabException e)
        {
            return (null, $"the cache does not read: {e.Message}");
        }
        return cache.Inputs.Any(i => i is null || i.Path is null || !Path.IsPathFullyQualified(i.Path) || i.Sha256 is null)
                || cache.Listings.Any(l => l is null || l.Folder is null || !Path.IsPathFullyQualified(l.Folder) || l.Sha256 is null)
                || cache.Tool is null || cache.Options is null || cache.Result is null
            ? (null, "the cache is damaged (an input without its path or hash)")
            : (cache.Result.Invalid() ?? (cache.Projects is null ? null : CachedProjectFacts.Invalid(cache.Projects))
                ?? cache.Walks?.Invalid(cache.Result.Findings.Count + cache.Result.Suppressed.Count, cache.Result.EntryPoints.Count)) is { } invalid ? (null, $"the cache is damaged ({invalid})")
            : (cache, null);
    }

    /// <summary>
    /// Writes the cache for a scan of <paramref name="code"/> that started at <paramref name="startedUtc"/>, with the
    /// projects' <paramref name="facts"/> when a rebuild gave them (else as the load's workspace has them); a cache
    /// that cannot be written is a line, not an error.
    /// </summary>
    public void Save(LoadedCode code, ScanResult result, DateTime startedUtc, IScanProgress progress, IReadOnlyList<CachedProjectFacts>? facts = null)
    {
        ArgumentNullException.ThrowIfNull(code);
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(progress);
        if (code.Skipped.Count > 0 || code.ReadInPart.Count > 0)
        {
            // A project not read, or loaded without some of its references (not restored, an MSBuild error), may read in
            // full next time (a restore that failed for the network): not kept. A load that read every project in full
            // and whose only gaps are calls that did not resolve (into a package not referenced) is decided by the
            // recorded inputs, the restore output among them: kept, its projects read in part said again on reuse.
            return;
        }
        // The projects as MSBuild saw them, to rebuild without it after an edit to sources alone; their assemblies are inputs too.
        facts ??= CachedProjectFacts.Of(code).Facts;
        var (files, listings) = CacheInputs.Record(code, [configPath, .. options.BaselineFile is { } b ? [b] : Array.Empty<string>(), .. CachedProjectFacts.Assemblies(facts ?? [])], _hashed);
        // A rebuild's reused generated sources are documents of its workspace, at paths no file is at: not inputs.
        var generated = (facts ?? []).SelectMany(f => f.Generated ?? []).Select(g => g.Path).ToHashSet(StringComparer.Ordinal);
        files.RemoveAll(f => f.Size < 0 && generated.Contains(f.Path));
        // A source edited while the scan ran may or may not be in the result: not kept.
        if (files.FirstOrDefault(f => CacheInputs.WrittenDuring(f, startedUtc)) is { } racing)
        {
            progress.Line($"tplab scan: not caching this scan: {racing.Path} changed while it ran");
            return;
        }
        var cache = new ScanCacheFile(ScanCacheFile.Version, Tool, Options, files, listings, facts, CachedResult.From(result), result.Walks);
        var (key, noKey) = CacheSeal.Key();
        if (key is null)
        {
            progress.Line($"tplab scan: not caching this scan: {noKey}");
            return;
        }
        if (FileKind.IsSpecial(File))
        {
            // The cache is tplab's own file, written whole by renaming: a FIFO or a device in its place (written in
            // place by AtomicFile, as an output the user names would be) would block the scan or receive the cache.
            progress.Line($"tplab scan: not caching this scan: {File} is not a regular file (a FIFO, a device or a socket)");
            return;
        }
        try
        {
            Directory.CreateDirectory(Folder);
            Write(File, cache, key);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or TplabException)
        {
            progress.Line($"tplab scan: could not write the cache {File}: {e.Message} (the scan is complete; --no-cache stops trying)");
        }
    }

    /// <summary>The one writer of the cache file: <paramref name="cache"/> as compact JSON, sealed with <paramref name="key"/> (<see cref="CacheSeal"/>), written whole.</summary>
    internal static void Write(string file, ScanCacheFile cache, byte[] key) =>
        // The serializer writes UTF-8 (invalid text escaped): the bytes are written as they are.
        AtomicFile.WriteAllBytes(file, CacheSeal.Envelope(key, JsonSerializer.SerializeToUtf8Bytes(cache, ScanCacheJsonContext.Compact.ScanCacheFile)));
}
