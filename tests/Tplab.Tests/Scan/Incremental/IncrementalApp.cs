using System.Diagnostics;
using Tplab.Scan;
using Tplab.Scan.Output;

namespace Tplab.Tests.Scan.Incremental;

/// <summary>
/// A small app on disk, edited step by step and scanned with the cache (in process, real MSBuild loads): after each
/// edit the cached scan must say how it used the cache (rebuilt without MSBuild, or a full scan naming the change) and,
/// where asked, its report must be the very report a fresh full scan (<c>--no-cache</c>) writes, times apart. Shared by
/// <see cref="IncrementalScanTests"/> and the full edit sequence in bench/ (<c>IncrementalSequenceBenchmark</c>).
/// </summary>
public sealed class IncrementalApp : IDisposable
{
    /// <summary>The line of a scan whose projects were rebuilt from the cache.</summary>
    public const string Rebuilt = "projects rebuilt from the cache without MSBuild";

    private readonly string _root = Directory.CreateTempSubdirectory("tplab-incremental-").FullName;

    /// <inheritdoc/>
    public void Dispose() => Directory.Delete(_root, recursive: true);

    /// <summary>The app's folder (what is scanned).</summary>
    public string Web => Path.Combine(_root, "Web");

    /// <summary>--verbose: the rebuild says in how many projects the source generators ran again (the report is the same).</summary>
    public bool Verbose { get; set; }

    /// <summary>Writes <paramref name="file"/> (relative to <see cref="Web"/>) whole.</summary>
    public void Write(string file, string text)
    {
        var path = Path.Combine(Web, file);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, text);
    }

    /// <summary>Replaces <paramref name="from"/>, which must be there, by <paramref name="to"/> in <paramref name="file"/>.</summary>
    public void Edit(string file, string from, string to)
    {
        var path = Path.Combine(Web, file);
        var text = File.ReadAllText(path);
        Assert.Contains(from, text, StringComparison.Ordinal);
        File.WriteAllText(path, text.Replace(from, to, StringComparison.Ordinal));
    }

    /// <summary>Scans the app in process; the report is the JSON without its times.</summary>
    public async Task<(string Report, ScanResult Result, List<string> Lines)> ScanAsync(string? changedSince = null, bool cache = true)
    {
        var lines = new List<string>();
        var options = new ScanOptions { Path = Web, Cache = cache, ChangedSince = changedSince, Verbose = Verbose };
        var result = await Scanner.ScanAsync(options, new Lines(lines), CancellationToken.None);
        using var json = new StringWriter();
        ScanFormats.For("json", null).Write(result, json);
        // The times are this run's own; everything else must be the same.
        var report = string.Join('\n', json.ToString().Split('\n').Where(l => !l.Contains("Seconds\"", StringComparison.Ordinal)));
        return (report, result, lines);
    }

    /// <summary>The findings as call@file:line, in order: what two results are compared by when their reports are not.</summary>
    public static string Ids(ScanResult result) => string.Join(", ", result.Findings.Select(f => $"{f.Call.Name}@{f.Site.File}:{f.Site.Line}").Order(StringComparer.Ordinal));

    /// <summary>
    /// Scans after an edit with the cache: with <paramref name="warm"/> the projects must be rebuilt without MSBuild,
    /// else a full scan, the line naming <paramref name="change"/>. With <paramref name="fresh"/>, a scan with no cache
    /// must write the same report (the proof that the cache changed nothing); with <paramref name="again"/>, a third
    /// scan must reuse the cache with the same report.
    /// </summary>
    public async Task<ScanResult> StepAsync(string step, string? change, bool warm = false, bool again = false, bool fresh = true)
    {
        var (incremental, result, lines) = await ScanAsync();
        Walked = lines.Select(l => System.Text.RegularExpressions.Regex.Match(l, @"^tplab scan: (\d+) of (\d+) entry point\(s\) walked again")).Where(m => m.Success)
            .Select(m => ((int, int)?)(int.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture), int.Parse(m.Groups[2].Value, System.Globalization.CultureInfo.InvariantCulture)))
            .FirstOrDefault();
        RootsCached = lines.Any(l => l.StartsWith("tplab scan: entry points as cached", StringComparison.Ordinal));
        if (change is not null)
        {
            var expected = warm ? Rebuilt : "tplab scan: full scan: ";
            Assert.True(lines.Any(l => l.Contains(expected, StringComparison.Ordinal) && l.Contains(change, StringComparison.Ordinal)),
                $"{step}: the scan after the edit did not say '{expected}' naming {change}: {string.Join(" | ", lines)}");
            Assert.True(warm || !lines.Any(l => l.Contains(Rebuilt, StringComparison.Ordinal)), $"{step}: rebuilt without MSBuild after a change MSBuild reads: {string.Join(" | ", lines)}");
        }
        if (fresh)
        {
            var (full, freshResult, _) = await ScanAsync(cache: false);
            Assert.True(full == incremental, $"{step}: the incremental report differs from a fresh full scan's:\n{full}\n---\n{incremental}");
            Assert.Equal(Ids(freshResult), Ids(result));
        }
        if (again)
        {
            var (cached, reused, cachedLines) = await ScanAsync();
            Assert.True(cachedLines.Any(l => l.Contains("reused the cached scan", StringComparison.Ordinal)), $"{step}: the unchanged rescan did not reuse the cache: {string.Join(" | ", cachedLines)}");
            Assert.True(incremental == cached, $"{step}: the cached report differs from the scan that wrote the cache:\n{incremental}\n---\n{cached}");
            Assert.Equal(Ids(result), Ids(reused));
        }
        return result;
    }

    /// <summary>
    /// With <see cref="Verbose"/>, after a step rebuilt without MSBuild: how many entry points its scan walked again, of
    /// how many (null: every one, the cached walks not used).
    /// </summary>
    public (int Walked, int Of)? Walked { get; private set; }

    /// <summary>With <see cref="Verbose"/>: whether the last step's scan took the cached entry points instead of finding them again.</summary>
    public bool RootsCached { get; private set; }

    /// <summary>Runs git in the app's folder; it must succeed.</summary>
    public void Git(params string[] arguments)
    {
        var info = new ProcessStartInfo("git") { WorkingDirectory = Web, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var a in arguments)
        {
            info.ArgumentList.Add(a);
        }
        using var git = Process.Start(info)!;
        git.WaitForExit();
        Assert.True(git.ExitCode == 0, $"git {string.Join(' ', arguments)}: {git.StandardError.ReadToEnd()}");
    }

    private sealed class Lines(List<string> lines) : IScanProgress
    {
        public void Line(string text)
        {
            lock (lines)
            {
                lines.Add(text);
            }
        }

        public void Status(string text)
        {
        }
    }
}
