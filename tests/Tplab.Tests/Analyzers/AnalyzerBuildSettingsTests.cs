extern alias analyzers;
extern alias codefixes;
using System.Text.RegularExpressions;
using Tplab.Tests.Support;
using BlockingCallAnalyzer = analyzers::Tplab.Analyzers.BlockingCallAnalyzer;
using BlockingCodeFixProvider = codefixes::Tplab.Analyzers.CodeFixes.BlockingCodeFixProvider;

namespace Tplab.Tests.Analyzers;

/// <summary>
/// What a team sets is honoured in a real <c>dotnet build</c> of a throwaway web app with the package's two assemblies
/// added as a package adds them: <c>.editorconfig</c> severities (<c>none</c> silences, <c>error</c> fails the build),
/// each on its own file of the one build, and the usual suppressions (<c>[SuppressMessage]</c>,
/// <c>#pragma warning disable</c>). A real build because under Analyzer.Testing an <c>.editorconfig</c> line did not
/// reach the diagnostic's severity.
/// </summary>
public sealed partial class AnalyzerBuildSettingsTests
{
    private const string Program = """
        using System.Diagnostics.CodeAnalysis;
        using System.Threading;

        var app = Microsoft.AspNetCore.Builder.WebApplication.Create();
        app.MapGet("/plain", () => Handlers.Plain());
        app.MapGet("/attribute", () => Handlers.Attributed());
        app.MapGet("/pragma", () => Handlers.Pragma());
        app.MapGet("/silenced", () => Quiet.Wait());
        app.MapGet("/warned", () => Loud.Wait());
        app.Run();

        static class Handlers
        {
            public static int Plain()
            {
                Thread.Sleep(10); // line 16
                return 1;
            }

            [SuppressMessage("Reliability", "TPL0001:Thread.Sleep on a request path", Justification = "a test")]
            public static int Attributed()
            {
                Thread.Sleep(10);
                return 2;
            }

            public static int Pragma()
            {
        #pragma warning disable TPL0001
                Thread.Sleep(10);
        #pragma warning restore TPL0001
                return 3;
            }
        }
        """;

    // Two more files of the same request paths, the same site in each: one under `none`, one no section names.
    private static string Other(string type) => $$"""
        using System.Threading;

        static class {{type}}
        {
            public static int Wait()
            {
                Thread.Sleep(10); // line 7
                return 4;
            }
        }
        """;

    [Fact]
    public async Task EditorConfig_NoneSilences_ErrorFailsOnTheOneUnsuppressedSite()
    {
        var build = await BuildAsync();

        Assert.True(build.Exit != 0, "an error severity did not fail the build:\n" + build.Output);
        // The one site of the error file that neither [SuppressMessage] nor #pragma covers, once (the log repeats errors
        // in its summary); the same shape reported in the file no section names (so the analyzer sees it), and nothing
        // from the file set to none. (The compiler gives the unnamed file's diagnostic the severity another section set
        // for the id: its severity is the compiler's, not asserted.)
        var sites = Diagnostic().Matches(build.Output).Select(m => (m.Groups["file"].Value, m.Groups["severity"].Value, m.Groups["line"].Value)).Distinct().ToList();
        Assert.Equal([("Program.cs", "error", "16")], sites.Where(s => s.Item1 == "Program.cs"));
        Assert.Equal([("Warned.cs", "7")], sites.Where(s => s.Item1 != "Program.cs").Select(s => (s.Item1, s.Item3)).Distinct());
        Assert.DoesNotContain("Silenced.cs(", build.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("CS8032", build.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("AD0001", build.Output, StringComparison.Ordinal);
    }

    private static async Task<(int Exit, string Output)> BuildAsync()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-editorconfig-").FullName;
        try
        {
            await File.WriteAllTextAsync(Path.Combine(folder, "App.csproj"), $"""
                <Project Sdk="Microsoft.NET.Sdk.Web">
                  <PropertyGroup>
                    <TargetFramework>net10.0</TargetFramework>
                    <ImplicitUsings>enable</ImplicitUsings>
                  </PropertyGroup>
                  <ItemGroup>
                    <Analyzer Include="{typeof(BlockingCallAnalyzer).Assembly.Location}" />
                    <Analyzer Include="{typeof(BlockingCodeFixProvider).Assembly.Location}" />
                  </ItemGroup>
                </Project>
                """);
            await File.WriteAllTextAsync(Path.Combine(folder, "Program.cs"), Program);
            await File.WriteAllTextAsync(Path.Combine(folder, "Silenced.cs"), Other("Quiet"));
            await File.WriteAllTextAsync(Path.Combine(folder, "Warned.cs"), Other("Loud"));
            await File.WriteAllTextAsync(Path.Combine(folder, ".editorconfig"),
                "root = true\n\n[Program.cs]\ndotnet_diagnostic.TPL0001.severity = error\n\n[Silenced.cs]\ndotnet_diagnostic.TPL0001.severity = none\n");
            return await Preconditions.RunToolAsync("dotnet", TimeSpan.FromMinutes(10), "build", Path.Combine(folder, "App.csproj"), "-nologo", "-clp:NoSummary");
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [GeneratedRegex(@"(?<file>\w+\.cs)\((?<line>\d+),\d+\): (?<severity>warning|error|info) TPL0001:")]
    private static partial Regex Diagnostic();
}
