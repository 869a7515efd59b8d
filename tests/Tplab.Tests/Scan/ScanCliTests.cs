using System.Globalization;
using System.Text.Json;
using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan;

/// <summary>
/// `tplab scan` as a user and a CI job meet it: exit codes, the skipped-project line, files written. Bad input is
/// in the in-process tables (Cli/BadInput/ScanBadInputTests, under every culture). The command tree runs in this
/// process (<see cref="InProcessCli"/>): the MSBuild build host, the restore and the files are real; the program's own
/// start is <c>Cli/CliTests</c>', and a fresh process per scan only JIT-compiled Roslyn again (4 scans, about a third
/// of the class's CPU).
/// </summary>
[Collection(TestCollections.Diagnose)]
public sealed class ScanCliTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromMinutes(3);

    private static Task<(int ExitCode, string Stdout, string Stderr)> ScanAsync(params string[] args) =>
        InProcessCli.RunAsync(CultureInfo.InvariantCulture, ["scan", .. args]).WaitAsync(Limit);

    private static string Fixture(string name) => Path.Combine(RepoPaths.Root, "tests", "scan-fixtures", name);

    [Fact]
    public async Task Scan_ProjectThatDoesNotLoad_SaysWhyInOneLineAndExitsPartial()
    {
        var (code, stdout, stderr) = await ScanAsync(Fixture("Broken"));
        Assert.True(code == ExitCodes.Partial, $"exit {code}: {stderr}");
        var skipped = stderr.Split('\n').Where(l => l.StartsWith("tplab scan: skipped ", StringComparison.Ordinal)).ToList();
        Assert.Equal(["tplab scan: skipped Bad: MSBuild could not load it: The SDK 'Contoso.Build.Sdk/1.0.0' specified could not be found"], skipped);
        Assert.Contains("skipped: Bad:", stdout, StringComparison.Ordinal);
        // The project that loaded serves no requests: the report says so first, and no option makes it a clean exit 0.
        Assert.StartsWith("tplab scan: no project that serves requests was read (1 skipped, 0 read in part)", stdout, StringComparison.Ordinal);
        Assert.DoesNotContain("skipped Good", stderr, StringComparison.Ordinal);

        (code, stdout, stderr) = await ScanAsync(Fixture("Broken"), "--allow-partial");
        Assert.True(code == ExitCodes.Partial, $"--allow-partial: exit {code}: {stderr}");
        // dotnet restore passed over the project it cannot evaluate and exited 0: remembered, not run again.
        Assert.DoesNotContain("tplab scan: restoring ", stderr, StringComparison.Ordinal);
        Assert.Contains("their restore failed before with these same files (ended without restore output for Bad)", stderr, StringComparison.Ordinal);
        Assert.Contains("no project that serves requests was read", stderr, StringComparison.Ordinal);
        Assert.StartsWith("tplab scan: no project that serves requests was read", stdout, StringComparison.Ordinal);
    }

    [SchemaFact]
    public async Task Scan_FailOnWithBaseline_ExitsFindingsThenCleanOnceBaselined()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-scan-cli-").FullName;
        try
        {
            var json = Path.Combine(folder, "scan.json");
            var baseline = Path.Combine(folder, "baseline.json");
            var (code, stdout, stderr) = await ScanAsync(Fixture("Shop"), "-o", json, "--fail-on", "error", "--write-baseline", baseline);
            Assert.True(code == ExitCodes.Findings, $"exit {code}: {stderr}");
            Assert.Equal("", stdout);
            await SchemaValidation.AssertValidAsync(SchemaValidation.SchemaOf("scan"), json);
            using (var doc = JsonDocument.Parse(File.ReadAllText(json)))
            {
                Assert.True(doc.RootElement.GetProperty("summary").GetProperty("errors").GetInt32() > 0);
            }

            var sarif = Path.Combine(folder, "scan.sarif");
            (code, _, stderr) = await ScanAsync(Fixture("Shop"), "-o", sarif, "--fail-on", "warning", "--baseline", baseline);
            Assert.True(code == ExitCodes.Ok, $"exit {code}: {stderr}");
            await SchemaValidation.AssertValidAsync("sarif", sarif);
            using var log = JsonDocument.Parse(File.ReadAllText(sarif));
            var states = log.RootElement.GetProperty("runs")[0].GetProperty("results").EnumerateArray()
                .Where(r => !r.TryGetProperty("suppressions", out _)).Select(r => r.GetProperty("baselineState").GetString()).Distinct();
            Assert.Equal(["unchanged"], states);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
