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
    public async Task Scan_TestProjectAlone_NeedsIncludeTests()
    {
        var tests = Path.Combine(ShopScan.Folder, "Shop.Web.Tests", "Shop.Web.Tests.csproj");
        var error = await Assert.ThrowsAsync<TplabException>(() => Scanner.ScanAsync(new ScanOptions { Path = tests }, new RecordingProgress(), CancellationToken.None));
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains("--include-tests", error.Message, StringComparison.Ordinal);

        var result = await Scanner.ScanAsync(new ScanOptions { Path = tests, IncludeTests = true }, new RecordingProgress(), CancellationToken.None);
        Assert.Contains(result.Findings, f => f.Roots.Any(r => r.Root.Key == "GET /fake-partner") && f.Call.Name == "Thread.Sleep");
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
