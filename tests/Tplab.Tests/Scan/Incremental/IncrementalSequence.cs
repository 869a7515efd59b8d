using Tplab.Scan.Findings;

namespace Tplab.Tests.Scan.Incremental;

/// <summary>
/// Issue 35's list of edits to a small web app — a body changed, a blocking call added, one removed, an endpoint added,
/// a DI registration changed, a <c>&lt;DefineConstants&gt;</c> changed and a source edited under it, a call into a
/// package not referenced (a partial result, cached all the same), a package added and its version changed, a file
/// deleted and another added — each scanned with the cache as <see cref="IncrementalApp.StepAsync"/> checks it. With
/// git, the result cut to a pull request's changes keeps what passes through them.
/// <para>
/// <c>every: false</c> (the suite): one edit of each kind the rebuild without MSBuild handles differently (a body, a new
/// site and the pull request's cut, a DI registration, a source under a defined symbol, a call that does not resolve),
/// each compared with a fresh full scan, and the two kinds of full scan (a project file changed, a file deleted); the
/// other edits repeat one of those kinds. <c>every: true</c> (bench/scan-incremental-sequence.sh): every edit, and
/// every step compared with a fresh full scan.
/// </para>
/// </summary>
public static class IncrementalSequence
{
    public static async Task RunAsync(IncrementalApp app, bool every)
    {
        ArgumentNullException.ThrowIfNull(app);
        app.Verbose = true;
        app.Write("Web.csproj", "<Project Sdk=\"Microsoft.NET.Sdk.Web\"><PropertyGroup><TargetFramework>net10.0</TargetFramework><ImplicitUsings>enable</ImplicitUsings><Nullable>enable</Nullable></PropertyGroup></Project>\n");
        app.Write("Program.cs", """
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
        app.Write("Services/OrderService.cs", """
            namespace Web.Services;
            public sealed class OrderService(IStore store)
            {
                public string Find(int id) => store.Load(id);
                public string List() => string.Join(",", Enumerable.Range(1, 3));
                public string Extra() => "extra";
            }
            """);
        app.Write("Services/Store.cs", """
            namespace Web.Services;
            public interface IStore { string Load(int id); }
            public sealed class SqlStore : IStore { public string Load(int id) { Thread.Sleep(20); return id.ToString(System.Globalization.CultureInfo.InvariantCulture); } }
            public sealed class MemoryStore : IStore { public string Load(int id) => "memory"; }
            """);
        app.Write("Controllers/ReportsController.cs", """
            using Microsoft.AspNetCore.Mvc;
            namespace Web.Controllers;
            [ApiController]
            public sealed class ReportsController : ControllerBase
            {
                [HttpGet("/reports")]
                public string Get() { Thread.Sleep(50); return "report"; }

                [HttpGet("/reports/count")]
                public int Count() => Enumerable.Range(1, 2).Count();
            }
            """);
        app.Write(".gitignore", "bin/\nobj/\n");
        app.Git("init", "-q");
        app.Git("add", "-A");
        app.Git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "base");

        // A full scan writes the cache: with a fresh scan beside it only where every step is compared.
        var first = await app.StepAsync("initial", null, again: true, fresh: every);
        Assert.Equal(2, first.Findings.Count);

        app.Edit("Services/OrderService.cs", "Enumerable.Range(1, 3)", "Enumerable.Range(1, 4)");
        Assert.Equal(IncrementalApp.Ids(first), IncrementalApp.Ids(await app.StepAsync("a body changed", "Services/OrderService.cs", warm: true, again: true)));
        // Only the endpoints that reach OrderService are walked again; the controller's walk is the cached one.
        Assert.True(app.RootsCached);
        Assert.True(app.Walked is ({ } walked, { } of) && walked > 0 && walked < of, $"walked again: {app.Walked}");

        // A controller's body made longer, then shorter again: the action after it moves in the file, and is found by its
        // rank among the file's declarations, not its place; only the controller's actions are walked again.
        foreach (var (from, to) in new[] { ("return \"report\";", "return \"report\" + \"s\";"), ("return \"report\" + \"s\";", "return \"report\";") })
        {
            app.Edit("Controllers/ReportsController.cs", from, to);
            Assert.Equal(IncrementalApp.Ids(first), IncrementalApp.Ids(await app.StepAsync("a controller's body longer or shorter", "Controllers/ReportsController.cs", warm: true)));
            Assert.True(app.RootsCached);
            Assert.True(app.Walked is ({ } moved, { } all) && moved > 0 && moved < all, $"walked again: {app.Walked}");
        }

        app.Edit("Services/OrderService.cs", "public string List() => string.Join", "public string List() => Task.Delay(1).ContinueWith(_ => 1).Result + string.Join");
        var added = await app.StepAsync("a blocking call added", "Services/OrderService.cs", warm: true);
        Assert.Equal(3, added.Findings.Count);
        Assert.True(app.Walked is ({ } w, { } o) && w < o, $"walked again: {app.Walked}");

        // Cut to the pull request: the new call's chain passes through the changed file; the controller's does not.
        var (_, pr, prLines) = await app.ScanAsync(changedSince: "HEAD");
        Assert.Contains(prLines, l => l.Contains("reused the cached scan", StringComparison.Ordinal));
        if (every)
        {
            var (_, prFresh, _) = await app.ScanAsync(changedSince: "HEAD", cache: false);
            Assert.Equal(IncrementalApp.Ids(prFresh), IncrementalApp.Ids(pr));
        }
        Assert.Contains(prLines, l => l.Contains("--changed-since HEAD", StringComparison.Ordinal) && l.Contains("1 file(s) changed", StringComparison.Ordinal));
        Assert.Equal(["Services/OrderService.cs", "Services/OrderService.cs"], pr.Findings.Select(f => f.Chain.Select(h => h.File).First(f => f.StartsWith("Services/OrderService", StringComparison.Ordinal))));
        Assert.DoesNotContain(pr.Findings, f => f.Site.File.StartsWith("Controllers/", StringComparison.Ordinal));

        if (every)
        {
            app.Edit("Controllers/ReportsController.cs", "Thread.Sleep(50); ", "");
            Assert.Equal(2, (await app.StepAsync("a blocking call removed", "Controllers/ReportsController.cs", warm: true)).Findings.Count);

            app.Edit("Program.cs", "app.Run();", "app.MapGet(\"/extra\", (OrderService orders) => { Thread.Sleep(5); return orders.Extra(); });\napp.Run();");
            Assert.Equal(3, (await app.StepAsync("an endpoint added", "Program.cs", warm: true)).Findings.Count);
        }

        app.Edit("Program.cs", "AddSingleton<IStore, SqlStore>", "AddSingleton<IStore, MemoryStore>");
        var registration = await app.StepAsync("a DI registration changed", "Program.cs", warm: true);
        Assert.False(app.RootsCached);
        Assert.Null(app.Walked);
        Assert.DoesNotContain(registration.Findings, f => f.Site.File == "Services/Store.cs" && f.Severity == Severity.Error);

        // A preprocessor symbol: MSBuild's to compute (a full scan); the edit after it keeps it (the rebuild's parse options).
        app.Edit("Services/Store.cs", "public string Load(int id) => \"memory\";", "public string Load(int id)\n    {\n#if SLOW\n        Thread.Sleep(2);\n#endif\n        return \"memory\";\n    }");
        app.Edit("Web.csproj", "<Nullable>enable</Nullable>", "<Nullable>enable</Nullable><DefineConstants>$(DefineConstants);SLOW</DefineConstants>");
        var defined = await app.StepAsync("a <DefineConstants> changed", "Web.csproj changed", fresh: every);
        Assert.Contains(defined.Findings, f => f.Call.Name == "Thread.Sleep" && f.Site.File == "Services/Store.cs" && f.Site.Line == 7);
        app.Edit("Services/Store.cs", "Thread.Sleep(2);", "Thread.Sleep(3); Thread.Sleep(4);");
        var symbols = await app.StepAsync("a source edited under a defined symbol", "Services/Store.cs", warm: true);
        Assert.Equal(2, symbols.Findings.Count(f => f.Site.File == "Services/Store.cs" && f.Site.Line == 7));

        // A call into a package the project does not reference: every project read in full, the result partial only by
        // a call that did not resolve (the restore output decides it): cached, reused, and rebuilt without MSBuild after.
        app.Edit("Program.cs", "app.Run();", "app.MapGet(\"/feed\", () => Feeds.Client.Fetch());\napp.Run();");
        var unresolved = await app.StepAsync("a call that does not resolve", "Program.cs", warm: true, again: true);
        Assert.Contains(unresolved.ReadInPart, p => p.Reason.Contains("unresolved call", StringComparison.Ordinal));
        app.Edit("Services/OrderService.cs", "Enumerable.Range(1, 4)", "Enumerable.Range(1, 5)");
        Assert.NotEmpty((await app.StepAsync("a body changed beside the unresolved call", "Services/OrderService.cs", warm: true, fresh: every)).ReadInPart);

        if (every)
        {
            app.Edit("Web.csproj", "</PropertyGroup>", "</PropertyGroup><ItemGroup><PackageReference Include=\"Newtonsoft.Json\" Version=\"13.0.3\" /></ItemGroup>");
            app.Write("Services/Json.cs", "namespace Web.Services;\npublic static class Json { public static string Of(object o) => Newtonsoft.Json.JsonConvert.SerializeObject(o); }\n");
            await app.StepAsync("a package added", "Web.csproj changed");
            app.Edit("Web.csproj", "Version=\"13.0.3\"", "Version=\"13.0.4\"");
            await app.StepAsync("a package version changed", "Web.csproj changed");
        }

        File.Delete(Path.Combine(app.Web, "Controllers", "ReportsController.cs"));
        app.Write("Services/Clock.cs", "namespace Web.Services;\npublic static class Clock { public static void Wait() => Thread.Sleep(1); }\n");
        var deleted = await app.StepAsync("a file deleted, another added", "Controllers/ReportsController.cs was deleted", again: true, fresh: every);
        Assert.DoesNotContain(deleted.Findings, f => f.Site.File.StartsWith("Controllers/", StringComparison.Ordinal));
    }
}
