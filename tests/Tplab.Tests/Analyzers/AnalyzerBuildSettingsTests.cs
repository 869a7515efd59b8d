extern alias analyzers;
extern alias codefixes;
using System.Text.RegularExpressions;
using Tplab.Tests.Support;
using BlockingCallAnalyzer = analyzers::Tplab.Analyzers.BlockingCallAnalyzer;
using BlockingCodeFixProvider = codefixes::Tplab.Analyzers.CodeFixes.BlockingCodeFixProvider;

namespace Tplab.Tests.Analyzers;

/// <summary>
/// What a team sets is honoured in a real <c>dotnet build</c> of a throwaway web app with the package's two assemblies
/// added as a package adds them: <c>.editorconfig</c> severities (<c>none</c> silences, <c>error</c> fails the build)
/// and the usual suppressions (<c>[SuppressMessage]</c>, <c>#pragma warning disable</c>). A real build because under
/// Analyzer.Testing an <c>.editorconfig</c> line did not reach the diagnostic's severity.
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
        app.Run();

        static class Handlers
        {
            public static int Plain()
            {
                Thread.Sleep(10); // line 14
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

    [Fact]
    public async Task EditorConfig_NoneSilences_ErrorFailsOnTheOneUnsuppressedSite()
    {
        var silenced = await BuildAsync("none");
        Assert.True(silenced.Exit == 0, silenced.Output);
        Assert.DoesNotContain("TPL0001", silenced.Output, StringComparison.Ordinal);

        var failed = await BuildAsync("error");
        Assert.True(failed.Exit != 0, "an error severity did not fail the build:\n" + failed.Output);
        // The one site neither [SuppressMessage] nor #pragma covers, once (the log repeats errors in its summary).
        var sites = Diagnostic().Matches(failed.Output).Select(m => (m.Groups["severity"].Value, m.Groups["line"].Value)).Distinct().ToList();
        Assert.Equal([("error", "14")], sites);
        Assert.DoesNotContain("CS8032", failed.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("AD0001", failed.Output, StringComparison.Ordinal);
    }

    private static async Task<(int Exit, string Output)> BuildAsync(string severity)
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
            await File.WriteAllTextAsync(Path.Combine(folder, ".editorconfig"), $"root = true\n\n[*.cs]\ndotnet_diagnostic.TPL0001.severity = {severity}\n");
            return await Preconditions.RunToolAsync("dotnet", TimeSpan.FromMinutes(10), "build", Path.Combine(folder, "App.csproj"), "-nologo", "-clp:NoSummary");
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [GeneratedRegex(@"Program\.cs\((?<line>\d+),\d+\): (?<severity>warning|error|info) TPL0001:")]
    private static partial Regex Diagnostic();
}
