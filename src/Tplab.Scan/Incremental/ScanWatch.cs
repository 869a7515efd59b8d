using System.Globalization;

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
    public static async Task RunAsync(ScanOptions options, Action<ScanResult> report, IScanProgress progress, CancellationToken cancellationToken)
    {
        using var session = await WatchSession.StartAsync(options, progress, cancellationToken).ConfigureAwait(false);
        report(session.Result);
        await session.WarmUpAsync(cancellationToken).ConfigureAwait(false);
        progress.Line($"tplab scan: watching {session.Watched} for changes (Ctrl+C stops)");
        while (true)
        {
            await Task.Delay(options.WatchInterval, options.Time, cancellationToken).ConfigureAwait(false);
            if (await session.ChangesAsync(cancellationToken).ConfigureAwait(false) is not { } changes)
            {
                continue;
            }
            var (before, began) = (session.Result, options.Time.GetTimestamp());
            if (await session.RescanAsync(changes, cancellationToken).ConfigureAwait(false) is not { } how)
            {
                continue;
            }
            report(session.Result);
            foreach (var line in Lines(changes, how, options.Time.GetElapsedTime(began), before, session.Result))
            {
                progress.Line(line);
            }
        }
    }

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
