using System.Globalization;
using Tplab.Scan.Findings;
using Tplab.Scan.Loading;

namespace Tplab.Scan.Incremental;

/// <summary>
/// <c>tplab scan --watch</c>: one full load and scan, the report written, then the scan's inputs polled (<see
/// cref="WatchedInputs"/>); after an edit to sources the solution is rebuilt in place (<see cref="SourceEdits"/>) and
/// analysed again, the report rewritten whole, and one line says what changed, how long the rescan took and which
/// findings came and went. Any other change (a project, props, restore output, config or baseline; a file added,
/// deleted or renamed) is a load by MSBuild again. Runs until cancelled (Ctrl+C, SIGTERM); the cache is neither read
/// nor written.
/// </summary>
internal static class ScanWatch
{
    private static readonly TimeSpan Settle = TimeSpan.FromMilliseconds(100);

    public static async Task RunAsync(ScanOptions options, Action<ScanResult> report, IScanProgress progress, CancellationToken cancellationToken)
    {
        var input = ScanInput.Resolve(options.Path);
        var configPath = options.ConfigFile ?? Path.Combine(input.Root, Config.ScanConfig.DefaultFileName);
        string[] others = [configPath, .. options.BaselineFile is { } b ? [b] : Array.Empty<string>()];
        var started = options.Time.GetTimestamp();
        var startedUtc = options.Time.GetUtcNow().UtcDateTime;
        var load = await LoadAsync(options, input, progress, cancellationToken).ConfigureAwait(false);
        try
        {
            var code = load.Code;
            var inputs = WatchedInputs.Record(code, others, startedUtc);
            var baseline = ReadBaseline(options);
            var result = Scanner.Analyse(code, options, load.Config, baseline, progress, options.Time.GetElapsedTime(started), cancellationToken);
            report(result);
            var warming = options.Time.GetTimestamp();
            progress.Status("warming up for the first edit...");
            await SourceEdits.WarmUpAsync(code, cancellationToken).ConfigureAwait(false);
            if (options.Verbose)
            {
                using var self = System.Diagnostics.Process.GetCurrentProcess();
                progress.Line(string.Create(CultureInfo.InvariantCulture,
                    $"tplab scan: warmed up in {options.Time.GetElapsedTime(warming).TotalSeconds:0.00} s (a rebuild after an edit that changes nothing); {Scanner.CpuSinceStart(self)}"));
            }
            progress.Line(string.Create(CultureInfo.InvariantCulture,
                $"tplab scan: watching {inputs.Count} input file(s) of {code.Projects.Count} project(s) for changes (Ctrl+C stops)"));
            while (true)
            {
                await Task.Delay(options.WatchInterval, options.Time, cancellationToken).ConfigureAwait(false);
                if (!inputs.Moved())
                {
                    continue;
                }
                // An editor or git writes in steps: a moment for them to end before the contents are read (a write
                // after it is seen by the next poll, and scanned again).
                await Task.Delay(Settle, options.Time, cancellationToken).ConfigureAwait(false);
                var changes = inputs.Changes();
                if (changes.Count == 0)
                {
                    continue;
                }
                var began = options.Time.GetTimestamp();
                var (edited, reloadBecause) = SourceEdits.Classify(code, changes);
                string how;
                if (edited is not null)
                {
                    // Recorded before the files are read: an edit made while they are is a change at the next poll.
                    inputs = inputs.With(edited);
                    code = await SourceEdits.ApplyAsync(code, edited, cancellationToken).ConfigureAwait(false);
                    how = "rebuilt in place";
                    if (options.Verbose)
                    {
                        using var self = System.Diagnostics.Process.GetCurrentProcess();
                        progress.Line(string.Create(CultureInfo.InvariantCulture,
                            $"tplab scan: rebuilt in place in {options.Time.GetElapsedTime(began).TotalSeconds:0.00} s; {Scanner.CpuSinceStart(self)}"));
                    }
                }
                else
                {
                    progress.Line($"tplab scan: {reloadBecause}: loading the solution again with MSBuild");
                    var reloadedUtc = options.Time.GetUtcNow().UtcDateTime;
                    try
                    {
                        // The path resolved again: a folder's projects, or a solution's, may be others now.
                        var again = await LoadAsync(options, ScanInput.Resolve(options.Path), progress, cancellationToken).ConfigureAwait(false);
                        load.Dispose();
                        (load, code) = (again, again.Code);
                        inputs = WatchedInputs.Record(code, others, reloadedUtc);
                        baseline = ReadBaseline(options);
                    }
                    catch (Common.TplabException e) when (e.ExitCode != Common.ExitCodes.Interrupted)
                    {
                        // A project or config broken mid-edit: said, the last report kept, the next change awaited.
                        progress.Line($"tplab scan: not rescanned: {e.Message}; the report is the last scan's, watching for the next change");
                        inputs = WatchedInputs.Record(code, others, reloadedUtc);
                        continue;
                    }
                    how = "loaded again";
                }
                var next = Scanner.Analyse(code, options, load.Config, baseline, progress, options.Time.GetElapsedTime(began), cancellationToken);
                report(next);
                foreach (var line in Lines(changes, how, options.Time.GetElapsedTime(began), result, next))
                {
                    progress.Line(line);
                }
                result = next;
            }
        }
        finally
        {
            load.Dispose();
        }
    }

    private static Task<ScanLoad> LoadAsync(ScanOptions options, ScanInput input, IScanProgress progress, CancellationToken cancellationToken) =>
        Scanner.LoadAsync(input, options, "tplab scan", [("--output", options.Output)], [("the --baseline read", options.BaselineFile)], progress, cancellationToken);

    private static Baseline ReadBaseline(ScanOptions options) => options.BaselineFile is { } b ? Baseline.Read(b) : new Baseline();

    // A rescan that could not read every project says so on its line: its findings are not the code's.
    private static string Partial(ScanResult result) =>
        result.Skipped.Count > 0 ? string.Create(CultureInfo.InvariantCulture, $"; {result.Skipped.Count} project(s) not read (the lines above say why)") : "";

    /// <summary>
    /// What a rescan says: the change and the time (<c>Api/Orders.cs changed: rescanned in 1.84 s (rebuilt in place):
    /// 30 finding(s), 1 new, 0 gone</c>), then a line per finding that came or went (at most five of each).
    /// </summary>
    internal static IEnumerable<string> Lines(IReadOnlyList<(string Words, string? Edited)> changes, string how, TimeSpan took, ScanResult before, ScanResult after)
    {
        var was = before.Findings.Select(f => f.Id).ToHashSet(StringComparer.Ordinal);
        var now = after.Findings.Select(f => f.Id).ToHashSet(StringComparer.Ordinal);
        var added = after.Findings.Where(f => !was.Contains(f.Id)).ToList();
        var gone = before.Findings.Where(f => !now.Contains(f.Id)).ToList();
        var what = changes[0].Words + (changes.Count > 1 ? string.Create(CultureInfo.InvariantCulture, $" (and {changes.Count - 1} other change(s))") : "");
        yield return string.Create(CultureInfo.InvariantCulture,
            $"tplab scan: {what}: rescanned in {took.TotalSeconds:0.00} s ({how}): {after.Findings.Count} finding(s), {added.Count} new, {gone.Count} gone{Partial(after)}");
        foreach (var (sign, list) in new[] { ("+", added), ("-", gone) })
        {
            foreach (var f in list.Take(5))
            {
                yield return string.Create(CultureInfo.InvariantCulture,
                    $"tplab scan:   {sign} {f.Severity.ToString().ToLowerInvariant()} {f.Call.Name} at {f.Site.File}:{f.Site.Line} ({f.Root.Key}; {f.Id})");
            }
            if (list.Count > 5)
            {
                yield return string.Create(CultureInfo.InvariantCulture, $"tplab scan:   {sign} and {list.Count - 5} more");
            }
        }
    }
}
