using Tplab.Common;
using Tplab.Scan.Output;
using Tplab.Tests.Support;
using Tplab.Scan.Fix.Selecting;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// <c>tplab fix --from</c> reads scan's JSON and SARIF through the records scan writes them with: a real scan's report
/// in either format gives back exactly its findings' ids, and a report of another version, tool or solution is one line.
/// The scan is the fix lane's, of the shared copy of the orders service (<see cref="OrdersCopies"/>).
/// </summary>
[Collection(TestCollections.Fix)]
public sealed class FixFromTests(OrdersCopies copies)
{
    [Fact]
    public async Task ScanReports_JsonAndSarif_ReadBackAsTheirIds()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-fix-from-").FullName;
        try
        {
            var scan = await copies.ScanAsync();
            var expected = scan.Findings.Select(f => f.Id).ToHashSet(StringComparer.Ordinal);
            Assert.NotEmpty(expected);
            foreach (var format in new IScanFormat[] { new ScanJsonFormat(), new SarifFormat() })
            {
                var path = Path.Combine(folder, "scan" + format.Extensions[0]);
                using (var writer = new StreamWriter(path))
                {
                    format.Write(scan, writer);
                }
                var read = FixSelection.ReadReport(path, scan.Input.DisplayName, scan.Input.Root);
                Assert.False(read.WithoutProject);
                Assert.Equal(expected, read.Ids.ToHashSet(StringComparer.Ordinal));
                // The same report as the tplab before ids named the project wrote it: its ids select the same sites.
                var old = Path.Combine(folder, "old" + format.Extensions[0]);
                File.WriteAllText(old, scan.Findings.Aggregate(File.ReadAllText(path), (text, f) => text.Replace(f.Id, f.IdWithoutProject, StringComparison.Ordinal))
                    .Replace("\"schema\": 3", "\"schema\": 2", StringComparison.Ordinal).Replace("tplabFinding/v3", "tplabFinding/v2", StringComparison.Ordinal));
                var oldRead = FixSelection.ReadReport(old, scan.Input.DisplayName, scan.Input.Root);
                Assert.True(oldRead.WithoutProject);
                Assert.Equal(scan.Findings.Select(f => f.IdWithoutProject).ToHashSet(StringComparer.Ordinal), oldRead.Ids.ToHashSet(StringComparer.Ordinal));
                Assert.All(FixSelection.Targets(scan.Findings), t => Assert.True(oldRead.Selects(t), $"{t.Id} not selected by its old id"));
                var other = Assert.Throws<TplabException>(() => FixSelection.ReadReport(path, "Other.sln", "/elsewhere/Other"));
                Assert.Equal(ExitCodes.Usage, other.ExitCode);
                Assert.Contains("is a scan of", other.Message, StringComparison.Ordinal);
            }
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    public static TheoryData<string, string, string> BadReports => new()
    {
        { "r.json", "{\"schema\": 1, \"tool\": {\"name\": \"tplab\"}, \"scanned\": \"App.csproj\", \"findings\": []}", "is a scan report of schema 1; this tplab reads schemas 2 and 3" },
        { "r.json", "{\"schema\": 2, \"tool\": {\"name\": \"other\"}, \"findings\": []}", "is not a tplab scan report (tool: other)" },
        { "r.json", "{\"schema\": 2, \"tool\": {\"name\": \"tplab\"}, \"findings\": [{}]}", "has a finding without a tplab id" },
        { "r.json", "{\"schema\": 2, \"tool\": {\"name\": \"tplab\"}, \"findings\": [null]}", "findings[0]: null where a value is required" },
        { "r.json", "{\"hello\": 1}", "is not a tplab scan report (no findings)" },
        { "r.json", "[]", "is not a tplab scan report" },
        { "r.json", "{ not json", "is not a tplab scan report" },
        { "r.sarif", "{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"CodeQL\"}}, \"results\": []}]}", "is a SARIF log of another tool" },
        { "r.sarif", "{\"version\": \"2.1.0\", \"runs\": [{\"tool\": {\"driver\": {\"name\": \"tplab\"}}, \"results\": [{\"properties\": {}}]}]}", "has a finding without a tplab id" },
    };

    [Theory]
    [MemberData(nameof(BadReports))]
    public void BadReport_IsOneUsageLine(string name, string text, string says)
    {
        var folder = Directory.CreateTempSubdirectory("tplab-fix-from-").FullName;
        try
        {
            var path = Path.Combine(folder, name);
            File.WriteAllText(path, text);
            var e = Assert.Throws<TplabException>(() => FixSelection.ReadReport(path, "App.csproj", folder));
            Assert.Equal(ExitCodes.Usage, e.ExitCode);
            Assert.Contains(says, e.Message, StringComparison.Ordinal);
            Assert.DoesNotContain('\n', e.Message);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
