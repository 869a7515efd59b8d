extern alias analyzers;
using System.Globalization;
using System.Text.RegularExpressions;
using Tplab.Scan;
using Tplab.Scan.Config;
using Tplab.Scan.Findings;
using Tplab.Scan.Loading;
using Tplab.Tests.Support;
using BlockingCallAnalyzer = analyzers::Tplab.Analyzers.BlockingCallAnalyzer;
using AnalyzerIds = analyzers::Tplab.Analyzers.DiagnosticIds;

namespace Tplab.Tests.Analyzers;

/// <summary>
/// §4: a real <c>dotnet build</c> of the corpus shop with the analyzer reports the sites <c>tplab scan</c> reports,
/// site by site (file, line, column, id, finding id). One app here; bench/analyzer-vs-scan.sh compares the others.
/// </summary>
public sealed partial class AnalyzerVersusScanTests
{
    private static string App => Path.Combine(RepoPaths.Root, "tests", "corpus", "ShopApp");

    [Fact]
    public async Task ShopApp_BuildWarnings_AreScansFindings()
    {
        var scanned = await ScanAsync(App);
        var built = await BuildAsync(Path.Combine(App, "ShopApp.csproj"), typeof(BlockingCallAnalyzer).Assembly.Location);
        Assert.NotEmpty(scanned);
        var missing = scanned.Except(built).Order(StringComparer.Ordinal).ToList();
        var extra = built.Except(scanned).Order(StringComparer.Ordinal).ToList();
        Assert.True(missing.Count == 0 && extra.Count == 0,
            $"scan {scanned.Count} sites, build {built.Count}\nonly scan:\n  {string.Join("\n  ", missing)}\nonly build:\n  {string.Join("\n  ", extra)}");
    }

    /// <summary>scan's findings of the folder as <c>file:line:column id findingId</c>.</summary>
    internal static async Task<HashSet<string>> ScanAsync(string folder)
    {
        var options = new ScanOptions { Path = folder };
        using var code = await WorkspaceLoader.LoadAsync(ScanInput.Resolve(folder), options, SilentProgress.Instance, CancellationToken.None);
        var result = Scanner.Analyse(code, options, new ScanConfig(), new Baseline(), SilentProgress.Instance, TimeSpan.Zero, CancellationToken.None);
        return [.. result.Findings.Select(f => Site(f.Site.File, f.Site.Line, f.Site.Column, AnalyzerIds.For((analyzers::Tplab.Blocking.BlockingKind)(int)f.Call.Kind), f.Id))];
    }

    /// <summary>
    /// The TPL diagnostics of a build of <paramref name="project"/> with <paramref name="analyzer"/> added as a user's
    /// package would add it, in a configuration of its own (its obj/ and bin/ apart from the suite's build).
    /// </summary>
    internal static async Task<HashSet<string>> BuildAsync(string project, string analyzer)
    {
        var folder = Path.GetDirectoryName(project)!;
        var targets = Path.Combine(Path.GetTempPath(), $"tplab-analyzer-{Guid.NewGuid():N}.targets");
        await File.WriteAllTextAsync(targets, $"<Project><ItemGroup><Analyzer Include=\"{analyzer}\" /></ItemGroup></Project>");
        try
        {
            var (exit, output) = await Preconditions.RunToolAsync("dotnet", TimeSpan.FromMinutes(15), "build", project, "-c", "TplabAnalyzer", "--no-incremental",
                "-p:TreatWarningsAsErrors=false", "-p:CustomAfterMicrosoftCommonTargets=" + targets, "-nologo", "-clp:NoSummary",
                // Only the TPL diagnostics are compared: the .NET analyzers and the IDE rules the app's props turn on
                // would triple the compile for nothing read here.
                "-p:EnableNETAnalyzers=false", "-p:EnforceCodeStyleInBuild=false");
            Assert.True(exit == 0, "the build failed:\n" + output);
            return [.. Warning().Matches(output).Select(m => Site(
                Path.GetRelativePath(folder, m.Groups["file"].Value).Replace('\\', '/'),
                int.Parse(m.Groups["line"].Value, CultureInfo.InvariantCulture), int.Parse(m.Groups["column"].Value, CultureInfo.InvariantCulture),
                m.Groups["id"].Value, m.Groups["finding"].Value))];
        }
        finally
        {
            File.Delete(targets);
        }
    }

    private static string Site(string file, int line, int column, string id, string finding) =>
        string.Create(CultureInfo.InvariantCulture, $"{file}:{line}:{column} {id} {finding}");

    [GeneratedRegex(@"^(?<file>[^\s(][^(\n]*)\((?<line>\d+),(?<column>\d+)\): (?:warning|error|info) (?<id>TPL\d{4}): .*\(tplab fix --finding (?<finding>tp-[0-9a-f]{10})\)", RegexOptions.Multiline)]
    private static partial Regex Warning();
}
