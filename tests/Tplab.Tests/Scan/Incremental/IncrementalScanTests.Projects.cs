using Tplab.Scan;

namespace Tplab.Tests.Scan.Incremental;

/// <summary>
/// A solution of three projects, each with source generators (the SDK's regex and JSON generators, ASP.NET Core's in
/// the web project): an edit in one project runs the generators of that project, and of those that reference it when
/// what it declares changed; the others' generated sources are reused from the cache; after each edit the report is a
/// fresh full scan's.
/// </summary>
public sealed partial class IncrementalScanTests
{
    private const string Library = """
        <Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework><ImplicitUsings>enable</ImplicitUsings><Nullable>enable</Nullable></PropertyGroup></Project>
        """;

    [Fact]
    public async Task Scan_EditInOneProjectOfSeveral_ReusesTheOthersGeneratedSources()
    {
        _app.Verbose = true;
        _app.Write("App.slnx", "<Solution>\n  <Project Path=\"Api/Api.csproj\" />\n  <Project Path=\"Lib/Lib.csproj\" />\n  <Project Path=\"Other/Other.csproj\" />\n</Solution>\n");
        _app.Write("Api/Api.csproj", """
            <Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net10.0</TargetFramework><ImplicitUsings>enable</ImplicitUsings><Nullable>enable</Nullable></PropertyGroup>
            <ItemGroup><ProjectReference Include="../Lib/Lib.csproj" /><ProjectReference Include="../Other/Other.csproj" /></ItemGroup></Project>
            """);
        _app.Write("Api/Program.cs", """
            var app = WebApplication.CreateBuilder(args).Build();
            app.MapGet("/codes/{code}", (string code) => Lib.Codes.Check(code));
            app.MapGet("/other", () => Other.Clock.Now());
            app.Run();
            """);
        _app.Write("Lib/Lib.csproj", Library);
        _app.Write("Lib/Codes.cs", """
            using System.Text.RegularExpressions;
            namespace Lib;
            public static partial class Codes
            {
                [GeneratedRegex("^[0-9]+$")] private static partial Regex Digits();
                public static bool Check(string code) { Thread.Sleep(10); return Digits().IsMatch(code); }
            }
            """);
        _app.Write("Other/Other.csproj", Library);
        _app.Write("Other/Clock.cs", """
            using System.Text.Json.Serialization;
            namespace Other;
            public sealed record Tick(long At);
            [JsonSerializable(typeof(Tick))] public sealed partial class TickJson : JsonSerializerContext;
            public static class Clock { public static string Now() => System.Text.Json.JsonSerializer.Serialize(new Tick(1), TickJson.Default.Tick); }
            """);

        var first = await _app.StepAsync("initial", null, again: true, fresh: false);
        Assert.Single(first.Findings);

        // The web project alone: no other project references it.
        _app.Edit("Api/Program.cs", "app.Run();", "app.MapGet(\"/wait\", () => { Thread.Sleep(5); return 1; });\napp.Run();");
        Assert.Equal(2, (await RebuiltStepAsync("an endpoint added in the web project", "Api/Program.cs", 1)).Findings.Count);

        // Inside a body: the library alone; the web project that references it sees the same declarations, and the
        // other library's generated sources are reused as recorded by the rebuild before.
        _app.Edit("Lib/Codes.cs", "Thread.Sleep(10); ", "");
        Assert.Single((await RebuiltStepAsync("a blocking call removed in a library", "Lib/Codes.cs", 1)).Findings);

        // What the other library declares (a record's shape, its JSON context's generated source): the web project too.
        _app.Edit("Other/Clock.cs", "record Tick(long At)", "record Tick(long At, int Zone = 0)");
        Assert.Single((await RebuiltStepAsync("a declaration changed in the other library", "Other/Clock.cs", 2)).Findings);
    }

    /// <summary>
    /// Scans after an edit to <paramref name="change"/>: rebuilt without MSBuild, the generators run again in
    /// <paramref name="generatorsRun"/> projects; its report is a fresh full scan's, and the scan after it reuses the cache.
    /// </summary>
    private async Task<ScanResult> RebuiltStepAsync(string step, string change, int generatorsRun)
    {
        var (incremental, result, lines) = await _app.ScanAsync();
        Assert.True(lines.Any(l => l.Contains(IncrementalApp.Rebuilt, StringComparison.Ordinal) && l.Contains(change, StringComparison.Ordinal)), $"{step}: not rebuilt without MSBuild: {string.Join(" | ", lines)}");
        var generators = $"source generators run again in {generatorsRun} of 3 project(s)";
        Assert.True(lines.Any(l => l.Contains(generators, StringComparison.Ordinal)), $"{step}: expected '{generators}': {string.Join(" | ", lines)}");
        var (full, fresh, _) = await _app.ScanAsync(cache: false);
        Assert.True(full == incremental, $"{step}: the incremental report differs from a fresh full scan's:\n{full}\n---\n{incremental}");
        Assert.Equal(IncrementalApp.Ids(fresh), IncrementalApp.Ids(result));
        var (cached, _, cachedLines) = await _app.ScanAsync();
        Assert.True(cachedLines.Any(l => l.Contains("reused the cached scan", StringComparison.Ordinal)), $"{step}: the unchanged rescan did not reuse the cache: {string.Join(" | ", cachedLines)}");
        Assert.True(full == cached, $"{step}: the cached report differs from the full scan's");
        return result;
    }
}
