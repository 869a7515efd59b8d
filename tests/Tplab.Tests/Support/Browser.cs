using System.Diagnostics;
using System.Text.Json;

namespace Tplab.Tests.Support;

/// <summary>What a real headless Chromium saw when it opened a report (tests/browser/check-report.mjs).</summary>
internal sealed record BrowserView(
    bool Rendered,
    IReadOnlyList<BrowserChart> Charts,
    int Canvases,
    int Tables,
    string Text,
    IReadOnlyList<string> ConsoleErrors,
    IReadOnlyList<string> ExternalRequests,
    bool Overflow,
    string Legends,
    IReadOnlyList<SplitRow> Splits,
    int TocEntries);

/// <summary>A chart as drawn: its id, its data points, the tick labels of its axes.</summary>
internal sealed record BrowserChart(string Id, int Points, IReadOnlyList<string> Ticks);

/// <summary>One "where the time went" row: the mean latency and its parts, in milliseconds.</summary>
internal sealed record SplitRow(double Latency, double Waited, double Handler, double Rest);

/// <summary>Opens pages in Debian's Chromium through playwright-core (installed by test.sh with npm ci).</summary>
internal static class Browser
{
    /// <summary>Why a page cannot be opened here (node, tests/browser's packages or Chromium missing), or null.</summary>
    public static string? Missing { get; } = FindMissing();

    public static async Task<BrowserView> OpenAsync(string htmlPath, string screenshotPath)
    {
        Assert.True(Missing is null, Missing);
        var script = Path.Combine(RepoPaths.Root, "tests", "browser", "check-report.mjs");
        var info = new ProcessStartInfo("node") { ArgumentList = { script, htmlPath, screenshotPath }, RedirectStandardOutput = true, RedirectStandardError = true };
        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(90));
        await process.WaitForExitAsync(cts.Token);
        Assert.True(process.ExitCode == 0, $"check-report.mjs failed ({process.ExitCode}): {await stderr}");
        using var doc = JsonDocument.Parse((await stdout).Trim().Split('\n')[^1]);
        var r = doc.RootElement;
        return new BrowserView(
            r.GetProperty("rendered").GetBoolean(),
            [.. r.GetProperty("charts").EnumerateArray().Select(c => new BrowserChart(
                c.GetProperty("id").GetString()!, c.GetProperty("points").GetInt32(),
                [.. c.GetProperty("ticks").EnumerateArray().Select(t => t.GetString()!)]))],
            r.GetProperty("canvases").GetInt32(),
            r.GetProperty("tables").GetInt32(),
            r.GetProperty("text").GetString()!,
            [.. r.GetProperty("consoleErrors").EnumerateArray().Select(e => e.GetString()!)],
            [.. r.GetProperty("externalRequests").EnumerateArray().Select(e => e.GetString()!)],
            r.GetProperty("overflow").GetBoolean(),
            r.GetProperty("legends").GetString()!,
            [.. r.GetProperty("splits").EnumerateArray().Select(x => new SplitRow(
                x.GetProperty("latency").GetDouble(), x.GetProperty("waited").GetDouble(), x.GetProperty("handler").GetDouble(), x.GetProperty("rest").GetDouble()))],
            r.GetProperty("toc").GetInt32());
    }

    private static string? FindMissing()
    {
        var chromium = Environment.GetEnvironmentVariable("CHROMIUM_PATH") ?? "/usr/bin/chromium";
        return !Preconditions.Node || !Directory.Exists(Path.Combine(RepoPaths.Root, "tests", "browser", "node_modules", "playwright-core"))
            ? "node or tests/browser/node_modules is missing: test.sh installs them (npm ci in tests/browser)"
            : !File.Exists(chromium) ? $"Chromium is not installed at {chromium}: scripts/install-deps.sh test installs it"
            : null;
    }
}

/// <summary>
/// A fact that opens a page in Chromium: skipped, with how to install, when node, tests/browser's packages or Chromium
/// are missing (<c>Schemas = true</c>: it validates against JSON Schemas too, and needs tests/schemas' packages).
/// </summary>
public sealed class BrowserFactAttribute : FactAttribute
{
    public BrowserFactAttribute()
    {
        if (Browser.Missing is { } missing)
        {
            Skip = missing;
        }
    }

    private readonly bool _schemas;

    public bool Schemas
    {
        get => _schemas;
        init
        {
            _schemas = value;
            if (value && SchemaValidation.Folder is null)
            {
                Skip ??= SchemaValidation.Missing;
            }
        }
    }
}
