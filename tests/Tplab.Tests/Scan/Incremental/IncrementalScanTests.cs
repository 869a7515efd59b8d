using System.Diagnostics;
using Tplab.Scan;
using Tplab.Scan.Output;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Incremental;

/// <summary>
/// A sequence of edits to a small web app (issue 35's list: a body changed, a blocking call added, one removed, an
/// endpoint added, a DI registration changed, a file deleted): after each, the cached scan sees the change and scans
/// in full, and the scan after it reuses the cache with the very report a full scan wrote (times apart). With git, the
/// reused result cut to a pull request's changes keeps what passes through them. Real MSBuild loads of a real project.
/// </summary>
public sealed class IncrementalScanTests : IDisposable
{
    private readonly string _root = Directory.CreateTempSubdirectory("tplab-incremental-").FullName;

    public void Dispose() => Directory.Delete(_root, recursive: true);

    private string Web => Path.Combine(_root, "Web");

    private void Write(string file, string text)
    {
        var path = Path.Combine(Web, file);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, text);
    }

    private void Edit(string file, string from, string to)
    {
        var path = Path.Combine(Web, file);
        var text = File.ReadAllText(path);
        Assert.Contains(from, text, StringComparison.Ordinal);
        File.WriteAllText(path, text.Replace(from, to, StringComparison.Ordinal));
    }

    private async Task<(string Report, ScanResult Result, List<string> Lines)> ScanAsync(string? changedSince = null)
    {
        var lines = new List<string>();
        var options = new ScanOptions { Path = Web, Cache = true, ChangedSince = changedSince };
        var result = await Scanner.ScanAsync(options, new Lines(lines), CancellationToken.None);
        using var json = new StringWriter();
        ScanFormats.For("json", null).Write(result, json);
        // The times are this run's own; everything else must be the same.
        var report = string.Join('\n', json.ToString().Split('\n').Where(l => !l.Contains("Seconds\"", StringComparison.Ordinal)));
        return (report, result, lines);
    }

    private static string Ids(ScanResult result) => string.Join(", ", result.Findings.Select(f => $"{f.Call.Name}@{f.Site.File}:{f.Site.Line}").Order(StringComparer.Ordinal));

    /// <summary>Scans after an edit (a full scan, naming <paramref name="change"/>), then again (the cache), and compares the two reports.</summary>
    private async Task<ScanResult> StepAsync(string step, string? change)
    {
        var (full, result, fullLines) = await ScanAsync();
        if (change is not null)
        {
            Assert.True(fullLines.Any(l => l.StartsWith("tplab scan: full scan: ", StringComparison.Ordinal) && l.Contains(change, StringComparison.Ordinal)),
                $"{step}: the scan after the edit did not say it was a full scan because of {change}: {string.Join(" | ", fullLines)}");
        }
        var (cached, again, cachedLines) = await ScanAsync();
        Assert.True(cachedLines.Any(l => l.Contains("reused the cached scan", StringComparison.Ordinal)), $"{step}: the unchanged rescan did not reuse the cache: {string.Join(" | ", cachedLines)}");
        Assert.True(full == cached, $"{step}: the cached report differs from the full scan's:\n{full}\n---\n{cached}");
        Assert.Equal(Ids(result), Ids(again));
        return again;
    }

    [Fact]
    public async Task Scan_SequenceOfEdits_CachedReportIsTheFullScans()
    {
        Write("Web.csproj", "<Project Sdk=\"Microsoft.NET.Sdk.Web\"><PropertyGroup><TargetFramework>net10.0</TargetFramework><ImplicitUsings>enable</ImplicitUsings><Nullable>enable</Nullable></PropertyGroup></Project>\n");
        Write("Program.cs", """
            using Web.Services;
            var builder = WebApplication.CreateBuilder(args);
            builder.Services.AddControllers();
            builder.Services.AddSingleton<IStore, SqlStore>();
            builder.Services.AddSingleton<OrderService>();
            var app = builder.Build();
            app.MapControllers();
            app.MapGet("/orders/{id}", (int id, OrderService orders) => orders.Find(id));
            app.MapGet("/orders", (OrderService orders) => orders.List());
            app.Run();
            """);
        Write("Services/OrderService.cs", """
            namespace Web.Services;
            public sealed class OrderService(IStore store)
            {
                public string Find(int id) => store.Load(id);
                public string List() => string.Join(",", Enumerable.Range(1, 3));
                public string Extra() => "extra";
            }
            """);
        Write("Services/Store.cs", """
            namespace Web.Services;
            public interface IStore { string Load(int id); }
            public sealed class SqlStore : IStore { public string Load(int id) { Thread.Sleep(20); return id.ToString(System.Globalization.CultureInfo.InvariantCulture); } }
            public sealed class MemoryStore : IStore { public string Load(int id) => "memory"; }
            """);
        Write("Controllers/ReportsController.cs", """
            using Microsoft.AspNetCore.Mvc;
            namespace Web.Controllers;
            [ApiController]
            public sealed class ReportsController : ControllerBase
            {
                [HttpGet("/reports")]
                public string Get() { Thread.Sleep(50); return "report"; }
            }
            """);
        Write(".gitignore", "bin/\nobj/\n");
        Git("init", "-q");
        Git("add", "-A");
        Git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "base");

        var first = await StepAsync("initial", null);
        Assert.Equal(2, first.Findings.Count);

        Edit("Services/OrderService.cs", "Enumerable.Range(1, 3)", "Enumerable.Range(1, 4)");
        Assert.Equal(Ids(first), Ids(await StepAsync("a body changed", "Services/OrderService.cs changed")));

        Edit("Services/OrderService.cs", "public string List() => string.Join", "public string List() => Task.Delay(1).ContinueWith(_ => 1).Result + string.Join");
        var added = await StepAsync("a blocking call added", "Services/OrderService.cs changed");
        Assert.Equal(3, added.Findings.Count);

        // Cut to the pull request: the new call's chain passes through the changed file; the controller's does not.
        var (_, pr, prLines) = await ScanAsync(changedSince: "HEAD");
        Assert.Contains(prLines, l => l.Contains("reused the cached scan", StringComparison.Ordinal));
        Assert.Contains(prLines, l => l.Contains("--changed-since HEAD", StringComparison.Ordinal) && l.Contains("1 file(s) changed", StringComparison.Ordinal));
        Assert.Equal(["Services/OrderService.cs", "Services/OrderService.cs"], pr.Findings.Select(f => f.Chain.Select(h => h.File).First(f => f.StartsWith("Services/OrderService", StringComparison.Ordinal))));
        Assert.DoesNotContain(pr.Findings, f => f.Site.File.StartsWith("Controllers/", StringComparison.Ordinal));

        Edit("Controllers/ReportsController.cs", "Thread.Sleep(50); ", "");
        Assert.Equal(2, (await StepAsync("a blocking call removed", "Controllers/ReportsController.cs changed")).Findings.Count);

        Edit("Program.cs", "app.Run();", "app.MapGet(\"/extra\", (OrderService orders) => { Thread.Sleep(5); return orders.Extra(); });\napp.Run();");
        Assert.Equal(3, (await StepAsync("an endpoint added", "Program.cs changed")).Findings.Count);

        Edit("Program.cs", "AddSingleton<IStore, SqlStore>", "AddSingleton<IStore, MemoryStore>");
        var registration = await StepAsync("a DI registration changed", "Program.cs changed");
        Assert.DoesNotContain(registration.Findings, f => f.Site.File == "Services/Store.cs" && f.Severity == Tplab.Scan.Findings.Severity.Error);

        File.Delete(Path.Combine(Web, "Controllers", "ReportsController.cs"));
        Write("Services/Clock.cs", "namespace Web.Services;\npublic static class Clock { public static void Wait() => Thread.Sleep(1); }\n");
        await StepAsync("a file deleted, another added", "Controllers/ReportsController.cs was deleted");
    }

    private void Git(params string[] arguments)
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
