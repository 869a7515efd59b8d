using System.Diagnostics;
using Tplab.Scan;
using Tplab.Scan.Output;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Incremental;

/// <summary>
/// A sequence of edits to a small web app (issue 35's list: a body changed, a blocking call added, one removed, an
/// endpoint added, a DI registration changed, a <c>&lt;DefineConstants&gt;</c> changed, a call into a package not
/// referenced (a partial result, cached all the same), a package version changed, a
/// file deleted and another added): after each, the cached scan sees the change — an edit to sources alone rebuilds
/// the projects from the cache without MSBuild, anything else is a full scan — and its report is the very report a
/// fresh full scan (<c>--no-cache</c>) writes, times apart; the scan after it reuses the cache with that report too.
/// With git, the result cut to a pull request's changes keeps what passes through them. Real MSBuild loads of a real project.
/// </summary>
public sealed partial class IncrementalScanTests : IDisposable
{
    private readonly string _root = Directory.CreateTempSubdirectory("tplab-incremental-").FullName;

    public void Dispose() => Directory.Delete(_root, recursive: true);

    private string Web => Path.Combine(_root, "Web");

    // --verbose: the rebuild says in how many projects the source generators ran again (the report is the same).
    private bool _verbose;

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

    private async Task<(string Report, ScanResult Result, List<string> Lines)> ScanAsync(string? changedSince = null, bool cache = true)
    {
        var lines = new List<string>();
        var options = new ScanOptions { Path = Web, Cache = cache, ChangedSince = changedSince, Verbose = _verbose };
        var result = await Scanner.ScanAsync(options, new Lines(lines), CancellationToken.None);
        using var json = new StringWriter();
        ScanFormats.For("json", null).Write(result, json);
        // The times are this run's own; everything else must be the same.
        var report = string.Join('\n', json.ToString().Split('\n').Where(l => !l.Contains("Seconds\"", StringComparison.Ordinal)));
        return (report, result, lines);
    }

    private static string Ids(ScanResult result) => string.Join(", ", result.Findings.Select(f => $"{f.Call.Name}@{f.Site.File}:{f.Site.Line}").Order(StringComparer.Ordinal));

    private const string Rebuilt = "projects rebuilt from the cache without MSBuild";

    /// <summary>
    /// Scans after an edit with the cache (<paramref name="warm"/>: the projects rebuilt without MSBuild, else a full
    /// scan, the line naming <paramref name="change"/>), then with none, and compares the two reports; with
    /// <paramref name="again"/>, a third scan must reuse the cache with the same report.
    /// </summary>
    private async Task<ScanResult> StepAsync(string step, string? change, bool warm = false, bool again = false)
    {
        var (incremental, result, lines) = await ScanAsync();
        if (change is not null)
        {
            var expected = warm ? Rebuilt : "tplab scan: full scan: ";
            Assert.True(lines.Any(l => l.Contains(expected, StringComparison.Ordinal) && l.Contains(change, StringComparison.Ordinal)),
                $"{step}: the scan after the edit did not say '{expected}' naming {change}: {string.Join(" | ", lines)}");
            Assert.True(warm || !lines.Any(l => l.Contains(Rebuilt, StringComparison.Ordinal)), $"{step}: rebuilt without MSBuild after a change MSBuild reads: {string.Join(" | ", lines)}");
        }
        var (full, fresh, _) = await ScanAsync(cache: false);
        Assert.True(full == incremental, $"{step}: the incremental report differs from a fresh full scan's:\n{full}\n---\n{incremental}");
        Assert.Equal(Ids(fresh), Ids(result));
        if (again)
        {
            var (cached, reused, cachedLines) = await ScanAsync();
            Assert.True(cachedLines.Any(l => l.Contains("reused the cached scan", StringComparison.Ordinal)), $"{step}: the unchanged rescan did not reuse the cache: {string.Join(" | ", cachedLines)}");
            Assert.True(full == cached, $"{step}: the cached report differs from the full scan's:\n{full}\n---\n{cached}");
            Assert.Equal(Ids(fresh), Ids(reused));
        }
        return result;
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

        var first = await StepAsync("initial", null, again: true);
        Assert.Equal(2, first.Findings.Count);

        Edit("Services/OrderService.cs", "Enumerable.Range(1, 3)", "Enumerable.Range(1, 4)");
        Assert.Equal(Ids(first), Ids(await StepAsync("a body changed", "Services/OrderService.cs", warm: true, again: true)));

        Edit("Services/OrderService.cs", "public string List() => string.Join", "public string List() => Task.Delay(1).ContinueWith(_ => 1).Result + string.Join");
        var added = await StepAsync("a blocking call added", "Services/OrderService.cs", warm: true);
        Assert.Equal(3, added.Findings.Count);

        // Cut to the pull request: the new call's chain passes through the changed file; the controller's does not.
        var (_, pr, prLines) = await ScanAsync(changedSince: "HEAD");
        Assert.Contains(prLines, l => l.Contains("reused the cached scan", StringComparison.Ordinal));
        var (_, prFresh, _) = await ScanAsync(changedSince: "HEAD", cache: false);
        Assert.Equal(Ids(prFresh), Ids(pr));
        Assert.Contains(prLines, l => l.Contains("--changed-since HEAD", StringComparison.Ordinal) && l.Contains("1 file(s) changed", StringComparison.Ordinal));
        Assert.Equal(["Services/OrderService.cs", "Services/OrderService.cs"], pr.Findings.Select(f => f.Chain.Select(h => h.File).First(f => f.StartsWith("Services/OrderService", StringComparison.Ordinal))));
        Assert.DoesNotContain(pr.Findings, f => f.Site.File.StartsWith("Controllers/", StringComparison.Ordinal));

        Edit("Controllers/ReportsController.cs", "Thread.Sleep(50); ", "");
        Assert.Equal(2, (await StepAsync("a blocking call removed", "Controllers/ReportsController.cs", warm: true)).Findings.Count);

        Edit("Program.cs", "app.Run();", "app.MapGet(\"/extra\", (OrderService orders) => { Thread.Sleep(5); return orders.Extra(); });\napp.Run();");
        Assert.Equal(3, (await StepAsync("an endpoint added", "Program.cs", warm: true)).Findings.Count);

        Edit("Program.cs", "AddSingleton<IStore, SqlStore>", "AddSingleton<IStore, MemoryStore>");
        var registration = await StepAsync("a DI registration changed", "Program.cs", warm: true);
        Assert.DoesNotContain(registration.Findings, f => f.Site.File == "Services/Store.cs" && f.Severity == Tplab.Scan.Findings.Severity.Error);

        // A preprocessor symbol: MSBuild's to compute (a full scan); the edit after it keeps it (the rebuild's parse options).
        Edit("Services/Store.cs", "public string Load(int id) => \"memory\";", "public string Load(int id)\n    {\n#if SLOW\n        Thread.Sleep(2);\n#endif\n        return \"memory\";\n    }");
        Edit("Web.csproj", "<Nullable>enable</Nullable>", "<Nullable>enable</Nullable><DefineConstants>$(DefineConstants);SLOW</DefineConstants>");
        var defined = await StepAsync("a <DefineConstants> changed", "Web.csproj changed");
        Assert.Contains(defined.Findings, f => f.Call.Name == "Thread.Sleep" && f.Site.File == "Services/Store.cs" && f.Site.Line == 7);
        Edit("Services/Store.cs", "Thread.Sleep(2);", "Thread.Sleep(3); Thread.Sleep(4);");
        var symbols = await StepAsync("a source edited under a defined symbol", "Services/Store.cs", warm: true);
        Assert.Equal(2, symbols.Findings.Count(f => f.Site.File == "Services/Store.cs" && f.Site.Line == 7));

        // A call into a package the project does not reference: every project read in full, the result partial only by
        // a call that did not resolve (the restore output decides it): cached, reused, and rebuilt without MSBuild after.
        Edit("Program.cs", "app.Run();", "app.MapGet(\"/feed\", () => Feeds.Client.Fetch());\napp.Run();");
        var unresolved = await StepAsync("a call that does not resolve", "Program.cs", warm: true, again: true);
        Assert.Contains(unresolved.ReadInPart, p => p.Reason.Contains("unresolved call", StringComparison.Ordinal));
        Edit("Services/OrderService.cs", "Enumerable.Range(1, 4)", "Enumerable.Range(1, 5)");
        Assert.NotEmpty((await StepAsync("a body changed beside the unresolved call", "Services/OrderService.cs", warm: true)).ReadInPart);

        Edit("Web.csproj", "</PropertyGroup>", "</PropertyGroup><ItemGroup><PackageReference Include=\"Newtonsoft.Json\" Version=\"13.0.3\" /></ItemGroup>");
        Write("Services/Json.cs", "namespace Web.Services;\npublic static class Json { public static string Of(object o) => Newtonsoft.Json.JsonConvert.SerializeObject(o); }\n");
        await StepAsync("a package added", "Web.csproj changed");
        Edit("Web.csproj", "Version=\"13.0.3\"", "Version=\"13.0.4\"");
        await StepAsync("a package version changed", "Web.csproj changed");

        File.Delete(Path.Combine(Web, "Controllers", "ReportsController.cs"));
        Write("Services/Clock.cs", "namespace Web.Services;\npublic static class Clock { public static void Wait() => Thread.Sleep(1); }\n");
        await StepAsync("a file deleted, another added", "Controllers/ReportsController.cs was deleted", again: true);
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
