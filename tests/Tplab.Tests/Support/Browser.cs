using System.Diagnostics;
using System.Text.Json;

namespace Tplab.Tests.Support;

/// <summary>What a real headless Chromium saw when it opened a report (tests/browser/check-report.mjs).</summary>
internal sealed record BrowserView(bool Rendered, IReadOnlyList<(string Id, int Points)> Charts, int Canvases, int Tables, string Text, IReadOnlyList<string> ConsoleErrors, IReadOnlyList<string> ExternalRequests);

/// <summary>Opens pages in Debian's Chromium through playwright-core (installed by test.sh with npm ci).</summary>
internal static class Browser
{
    public static async Task<BrowserView> OpenAsync(string htmlPath, string screenshotPath)
    {
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
            [.. r.GetProperty("charts").EnumerateArray().Select(c => (c.GetProperty("id").GetString()!, c.GetProperty("points").GetInt32()))],
            r.GetProperty("canvases").GetInt32(),
            r.GetProperty("tables").GetInt32(),
            r.GetProperty("text").GetString()!,
            [.. r.GetProperty("consoleErrors").EnumerateArray().Select(e => e.GetString()!)],
            [.. r.GetProperty("externalRequests").EnumerateArray().Select(e => e.GetString()!)]);
    }
}
