using Tplab.Scan;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Incremental;

/// <summary>
/// <c>scan --watch</c> end to end, in process, on a small web app loaded by MSBuild: an edit to a source is rebuilt in
/// place and the report rewritten is the very report a fresh full scan writes (times apart); a touch that changes no
/// byte is not a change; a file added is a load by MSBuild again that finds the new site; a project file broken
/// mid-edit is a skipped project, and its repair the next rescan; cancelling ends the watch with the report whole. The rebuild's figures on a 42-project app: BENCHMARKS.md "scan --watch".
/// </summary>
[Collection(TestCollections.Fix)]
public sealed class ScanWatchTests : IDisposable
{
    private readonly IncrementalApp _app = new();

    public void Dispose() => _app.Dispose();

    [Fact]
    public async Task Watch_EditFileAddedProjectBrokenAndRepaired_ReportIsTheFullScansEachTime()
    {
        _app.Write("Web.csproj", "<Project Sdk=\"Microsoft.NET.Sdk.Web\"><PropertyGroup><TargetFramework>net10.0</TargetFramework><ImplicitUsings>enable</ImplicitUsings><Nullable>enable</Nullable></PropertyGroup></Project>\n");
        _app.Write("Program.cs", """
            using Web.Services;
            var builder = WebApplication.CreateBuilder(args);
            builder.Services.AddSingleton<OrderService>();
            var app = builder.Build();
            app.MapGet("/orders/{id}", (int id, OrderService orders) => orders.Find(id));
            app.MapGet("/orders", (OrderService orders) => orders.List());
            app.Run();
            """);
        _app.Write("Services/OrderService.cs", """
            namespace Web.Services;
            public sealed class OrderService
            {
                public string Find(int id) { Thread.Sleep(20); return "order"; }
                public string List() => string.Join(",", Enumerable.Range(1, 3));
            }
            """);
        var report = Path.Combine(_app.Web, "..", "report.json");
        var lines = new WatchLines();
        using var stop = new CancellationTokenSource();
        var options = new ScanOptions { Path = _app.Web, Output = report, WatchInterval = TimeSpan.FromMilliseconds(200), Watch = true };
        var watch = Task.Run(() => ScanRun.RunAsync(options, lines, TextWriter.Null, stop.Token));

        await lines.WaitAsync(l => l.Contains("for changes (Ctrl+C stops)", StringComparison.Ordinal), watch);
        Assert.Equal(await FreshAsync(), Report(report));

        // A touch changes no byte: not a change, no rescan.
        File.SetLastWriteTimeUtc(Path.Combine(_app.Web, "Services", "OrderService.cs"), DateTime.UtcNow.AddSeconds(5));
        await Task.Delay(1000);
        _app.Edit("Services/OrderService.cs", "public string List() => string.Join", "public string List() => Task.Delay(1).ContinueWith(_ => 1).Result + string.Join");
        var edited = await lines.WaitAsync(l => l.Contains("rescanned in", StringComparison.Ordinal), watch);
        Assert.Single(lines.All, l => l.Contains("rescanned in", StringComparison.Ordinal));
        Assert.Contains("Services/OrderService.cs changed", edited, StringComparison.Ordinal);
        Assert.Contains("(rebuilt in place): 2 finding(s), 1 new, 0 gone", edited, StringComparison.Ordinal);
        Assert.Contains(lines.All, l => l.Contains("  + ", StringComparison.Ordinal) && l.Contains(" at Services/OrderService.cs:5 (GET /orders; tp-", StringComparison.Ordinal));
        Assert.Equal(await FreshAsync(), Report(report));

        // A file added: what the project compiles changed, so MSBuild loads it again.
        _app.Write("Services/Clock.cs", "namespace Web.Services;\npublic static class Clock { public static void Wait() => Thread.Sleep(1); }\n");
        _app.Edit("Program.cs", "orders.Find(id));", "{ Clock.Wait(); return orders.Find(id); });");
        var added = await lines.WaitAsync(l => l.Contains("rescanned in", StringComparison.Ordinal) && l.Contains("(loaded again)", StringComparison.Ordinal), watch);
        Assert.Contains(lines.All, l => l.Contains("loading the solution again with MSBuild", StringComparison.Ordinal));
        Assert.Contains("3 finding(s), 1 new, 0 gone", added, StringComparison.Ordinal);
        Assert.Contains("\"Services/Clock.cs\"", Report(report), StringComparison.Ordinal);

        // A project file half written: the project is skipped as a scan skips it, and its repair is the next rescan.
        var project = File.ReadAllText(Path.Combine(_app.Web, "Web.csproj"));
        _app.Write("Web.csproj", "<Project");
        var broken = await lines.WaitAsync(l => l.Contains("rescanned in", StringComparison.Ordinal), watch);
        Assert.Contains("0 finding(s), 0 new, 3 gone; 1 project(s) not read", broken, StringComparison.Ordinal);
        _app.Write("Web.csproj", project);
        var repaired = await lines.WaitAsync(l => l.Contains("rescanned in", StringComparison.Ordinal), watch);
        Assert.Contains("(loaded again): 3 finding(s), 3 new, 0 gone", repaired, StringComparison.Ordinal);

        await stop.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => watch);
        Assert.Equal(await FreshAsync(), Report(report));
        Assert.Empty(Directory.GetFiles(Path.GetDirectoryName(Path.GetFullPath(report))!, ".report.json.*"));
    }

    private async Task<string> FreshAsync() => (await _app.ScanAsync(cache: false)).Report;

    // The report as IncrementalApp compares them: the JSON without its times.
    private static string Report(string path) =>
        string.Join('\n', File.ReadAllText(path).Split('\n').Where(l => !l.Contains("Seconds\"", StringComparison.Ordinal)));

    private sealed class WatchLines : IScanProgress
    {
        private readonly List<string> _lines = [];
        private int _seen;

        public IReadOnlyList<string> All
        {
            get
            {
                lock (_lines)
                {
                    return [.. _lines];
                }
            }
        }

        public void Line(string text)
        {
            lock (_lines)
            {
                _lines.Add(text);
            }
        }

        public void Status(string text)
        {
        }

        /// <summary>The first line after those already waited for that matches; fails when the watch ends first or after two minutes (a hang guard, not a timing bound).</summary>
        public async Task<string> WaitAsync(Func<string, bool> match, Task watch)
        {
            var until = DateTime.UtcNow.AddMinutes(2);
            while (DateTime.UtcNow < until)
            {
                lock (_lines)
                {
                    for (; _seen < _lines.Count; _seen++)
                    {
                        if (match(_lines[_seen]))
                        {
                            return _lines[_seen++];
                        }
                    }
                }
                if (watch.IsCompleted)
                {
                    await watch;
                    Assert.Fail($"the watch ended: {string.Join(" | ", All)}");
                }
                await Task.Delay(100);
            }
            Assert.Fail($"no such line within two minutes: {string.Join(" | ", All)}");
            return "";
        }
    }
}
