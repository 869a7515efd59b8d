using Tplab.Common;
using Tplab.Scan;
using Tplab.Scan.Loading;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Loading;

/// <summary>Loading as a user's checkout is: not restored yet, with test projects, in a folder without a solution.</summary>
[Collection(TestCollections.Diagnose)]
public sealed class WorkspaceLoaderTests
{
    private const string Api = """
        <Project Sdk="Microsoft.NET.Sdk.Web">
          <PropertyGroup><TargetFramework>net10.0</TargetFramework><ImplicitUsings>enable</ImplicitUsings></PropertyGroup>
          <ItemGroup><PackageReference Include="Npgsql" Version="10.0.0" /></ItemGroup>
        </Project>
        """;

    private const string Program = """
        using Npgsql;
        var app = WebApplication.CreateBuilder(args).Build();
        app.MapGet("/count", (NpgsqlDataSource db) => { using var c = db.OpenConnection(); return 1; });
        app.MapGet("/sleep", () => Thread.Sleep(100));
        app.Run();
        """;

    [Fact]
    public async Task Scan_UnrestoredProjectWithNoRestore_AnalysesWhatItCanAndNamesWhatWasUnresolved()
    {
        var folder = NewApi();
        try
        {
            var progress = new RecordingProgress();
            var options = new ScanOptions { Path = folder, Restore = false, Format = "json", Output = Path.Combine(folder, "scan.json") };
            var code = await ScanRun.RunAsync(options, progress, TextWriter.Null, CancellationToken.None);
            Assert.Equal(ExitCodes.Partial, code);
            // Analysed without its packages: said once, as read in part, never also as skipped.
            var inPart = Assert.Single(progress.Lines, l => l.StartsWith("tplab scan: read in part Api:", StringComparison.Ordinal));
            Assert.Contains("not restored", inPart, StringComparison.Ordinal);
            Assert.Contains("Npgsql", inPart, StringComparison.Ordinal);
            Assert.DoesNotContain(progress.Lines, l => l.Contains("skipped", StringComparison.Ordinal));
            Assert.All(progress.Lines, l => Assert.True(l.Length <= 240, "an overlong line: " + l));
            Assert.Contains("\"blockingCall\": \"Thread.Sleep\"", File.ReadAllText(options.Output), StringComparison.Ordinal);

            code = await ScanRun.RunAsync(options with { AllowPartial = true }, new RecordingProgress(), TextWriter.Null, CancellationToken.None);
            Assert.Equal(ExitCodes.Ok, code);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task Scan_UnrestoredProject_IsRestoredFirstAndSaysSoInOneLine()
    {
        var folder = NewApi();
        try
        {
            var progress = new RecordingProgress();
            var result = await Scanner.ScanAsync(new ScanOptions { Path = folder }, progress, CancellationToken.None);
            var restoring = Assert.Single(progress.Lines, l => l.Contains("restoring", StringComparison.Ordinal));
            Assert.Contains("dotnet restore Api.csproj -nodeReuse:false", restoring, StringComparison.Ordinal);
            Assert.Empty(result.Skipped);
            Assert.Empty(result.ReadInPart);
            Assert.Contains(result.Findings, f => f.Call.Name == "NpgsqlDataSource.OpenConnection" && f.Root.Key == "GET /count");
            Assert.True(File.Exists(Path.Combine(folder, "obj", "project.assets.json")));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task Scan_DirectoryBuildPropsMovesObj_RestoresOnceAndReadsInFull()
    {
        // The restore output is where MSBuild's ProjectAssetsFile says (artifacts/obj/Api/), not Api/obj/.
        var folder = Directory.CreateTempSubdirectory("tplab-scan-moved-").FullName;
        try
        {
            Copy(Path.Combine(RepoPaths.Root, "tests", "scan-fixtures", "MovedObj"), folder);
            var first = new RecordingProgress();
            var result = await Scanner.ScanAsync(new ScanOptions { Path = folder }, first, CancellationToken.None);
            Assert.Empty(result.ReadInPart);
            Assert.Contains(result.Findings, f => f.Call.Name == "Thread.Sleep" && f.Root.Key == "GET /report");
            Assert.True(File.Exists(Path.Combine(folder, "artifacts", "obj", "Api", "project.assets.json")));
            Assert.False(Directory.Exists(Path.Combine(folder, "Api", "obj")));

            var second = new RecordingProgress();
            result = await Scanner.ScanAsync(new ScanOptions { Path = folder }, second, CancellationToken.None);
            Assert.DoesNotContain(second.Lines, l => l.Contains("restor", StringComparison.Ordinal));
            Assert.Empty(result.ReadInPart);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task Scan_GlobalJsonPinsAMissingSdk_OneLineExit3BeforeLoading()
    {
        var folder = NewApi();
        try
        {
            // A check that passed with the global.json as it was is not taken for the one written after it.
            File.WriteAllText(Path.Combine(folder, "global.json"), "{ }");
            await SdkCheck.EnsureResolvableAsync(folder, CancellationToken.None);
            File.WriteAllText(Path.Combine(folder, "global.json"), """{ "sdk": { "version": "9.0.999", "rollForward": "disable" } }""");
            var progress = new RecordingProgress();
            var error = await Assert.ThrowsAsync<TplabException>(() => Scanner.ScanAsync(new ScanOptions { Path = folder }, progress, CancellationToken.None));
            Assert.Equal(ExitCodes.Environment, error.ExitCode);
            Assert.StartsWith(Path.Combine(folder, "global.json") + " asks for the .NET SDK 9.0.999, which is not installed (installed: ", error.Message, StringComparison.Ordinal);
            Assert.DoesNotContain('\n', error.Message);
            // Before any restore or load.
            Assert.Empty(progress.Lines);
            Assert.False(Directory.Exists(Path.Combine(folder, "obj")));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task Scan_MultiTargetedLibrary_ReadAsTheAppReferencesIt()
    {
        // The library's first framework is netstandard2.0; the app (net10.0) references its net10.0 flavour, the one
        // whose symbols the app's calls bind to: the walk follows the endpoint into the library.
        var folder = Directory.CreateTempSubdirectory("tplab-scan-multi-").FullName;
        try
        {
            Directory.CreateDirectory(Path.Combine(folder, "Lib"));
            File.WriteAllText(Path.Combine(folder, "Lib", "Lib.csproj"), """
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup><TargetFrameworks>netstandard2.0;net10.0</TargetFrameworks></PropertyGroup>
                </Project>
                """);
            File.WriteAllText(Path.Combine(folder, "Lib", "Store.cs"), """
                namespace Lib
                {
                    public static class Store
                    {
                        public static void Save(string text) { System.IO.File.WriteAllText("store.txt", text); System.Threading.Thread.Sleep(10); }
                    }
                }
                """);
            File.WriteAllText(Path.Combine(folder, "Api.csproj"), """
                <Project Sdk="Microsoft.NET.Sdk.Web">
                  <PropertyGroup><TargetFramework>net10.0</TargetFramework><ImplicitUsings>enable</ImplicitUsings></PropertyGroup>
                  <ItemGroup><ProjectReference Include="Lib/Lib.csproj" /></ItemGroup>
                  <ItemGroup><Compile Remove="Lib/**" /></ItemGroup>
                </Project>
                """);
            File.WriteAllText(Path.Combine(folder, "Program.cs"), """
                var app = WebApplication.CreateBuilder(args).Build();
                app.MapPost("/save", (string text) => Lib.Store.Save(text));
                app.Run();
                """);
            var result = await Scanner.ScanAsync(new ScanOptions { Path = Path.Combine(folder, "Api.csproj") }, new RecordingProgress(), CancellationToken.None);
            Assert.Contains(result.Findings, f => f.Call.Name == "Thread.Sleep" && f.Root.Key == "POST /save" && f.Chain[^1].File.EndsWith("Lib/Store.cs", StringComparison.Ordinal));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task Scan_TestProjectAlone_NeedsIncludeTests()
    {
        var tests = Path.Combine(ShopScan.Folder, "Shop.Web.Tests", "Shop.Web.Tests.csproj");
        var error = await Assert.ThrowsAsync<TplabException>(() => Scanner.ScanAsync(new ScanOptions { Path = tests }, new RecordingProgress(), CancellationToken.None));
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains("--include-tests", error.Message, StringComparison.Ordinal);

        var result = await Scanner.ScanAsync(new ScanOptions { Path = tests, IncludeTests = true }, new RecordingProgress(), CancellationToken.None);
        Assert.Contains(result.Findings, f => f.Roots.Any(r => r.Root.Key == "GET /fake-partner") && f.Call.Name == "Thread.Sleep");
    }

    private static void Copy(string from, string to)
    {
        foreach (var file in Directory.EnumerateFiles(from, "*", SearchOption.AllDirectories)
            .Where(f => !f.Contains("/obj/", StringComparison.Ordinal) && !f.Contains("/artifacts/", StringComparison.Ordinal) && !f.Contains("/bin/", StringComparison.Ordinal)))
        {
            var target = Path.Combine(to, Path.GetRelativePath(from, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
    }

    private static string NewApi()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-scan-api-").FullName;
        File.WriteAllText(Path.Combine(folder, "Api.csproj"), Api);
        File.WriteAllText(Path.Combine(folder, "Program.cs"), Program);
        return folder;
    }

    private sealed class RecordingProgress : IScanProgress
    {
        public List<string> Lines { get; } = [];

        public void Line(string text)
        {
            lock (Lines)
            {
                Lines.Add(text);
            }
        }

        public void Status(string text)
        {
        }
    }
}
