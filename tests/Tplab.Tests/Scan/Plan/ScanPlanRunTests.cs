using System.Text.Json;
using Tplab.Lab.Plans;
using Tplab.Tests.Reports;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Plan;

/// <summary>
/// From finding to proof: <c>tplab scan --plan</c> on a service written like an application team's
/// (tests/Tplab.OrdersService: a minimal API whose store sleeps synchronously three calls down), then
/// <c>tplab run --plan</c> on the plan as written, which starts it with <c>dotnet run</c> and confirms the finding.
/// </summary>
[Collection(TestCollections.Orders)]
public sealed class ScanPlanRunTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-scan-plan-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static string Project => Path.Combine(RepoPaths.Root, "tests", "Tplab.OrdersService", "Tplab.OrdersService.csproj");

    [BrowserFact(Schemas = true)]
    public async Task ScanPlanThenRun_OrdersService_ConfirmsTheFindingBesideTheRuntimeCulprit()
    {
        var plan = Path.Combine(_folder, "orders.yaml");
        var (scanCode, _, scanErr) = await TplabCli.RunAsync(TimeSpan.FromMinutes(3), "scan", Project, "--plan", plan);
        Assert.True(scanCode == 0, $"scan exit {scanCode}: {scanErr}");

        // The plan: the flagged GET, its route filled to fit {id:int}, the finding it checks; dotnet run on a free port.
        var written = PlanReader.Read(plan);
        var scenario = Assert.Single(written.Scenarios);
        Assert.Equal("/orders/1", scenario.Requests[0].Path);
        var check = Assert.Single(scenario.Checks);
        Assert.Equal(("Orders.LegacyOrderStore.RoundTrip", "Thread.Sleep", "GET /orders/{id:int}"), (check.UserMethod, check.BlockingCall, check.Root));
        Assert.StartsWith("dotnet run --project Tplab.OrdersService.csproj -c Release", written.Service!.Command, StringComparison.Ordinal);
        Assert.Contains(written.Service.Environment, kv => kv.Key == "ASPNETCORE_URLS" && kv.Value == "http://127.0.0.1:0");

        var results = Path.Combine(_folder, "results");
        var (runCode, runOut, runErr) = await TplabCli.RunAsync(TimeSpan.FromMinutes(4), "run", "--plan", plan, "--results", results);
        Assert.True(runCode == 0, $"run exit {runCode}: {runErr}\n{runOut}");

        var folder = Directory.GetDirectories(results).Single();
        var summary = Path.Combine(folder, "summary.json");
        using var json = JsonDocument.Parse(File.ReadAllText(summary));
        var finding = Assert.Single(json.RootElement.GetProperty("experiments")[0].GetProperty("findings").EnumerateArray());
        Assert.True(finding.GetProperty("state").GetString() == "confirmed", finding.ToString());
        var culprit = finding.GetProperty("culprit");
        Assert.Equal("Orders.LegacyOrderStore.RoundTrip", culprit.GetProperty("userFrame").GetString());
        Assert.Equal("Thread.Sleep", culprit.GetProperty("blockingCall").GetString());
        Assert.True(culprit.GetProperty("threads").GetDouble() > 0);
        Assert.True(finding.GetProperty("meanMs").GetDouble() > 0);
        Assert.NotEqual(JsonValueKind.Null, finding.GetProperty("pool").ValueKind);
        await SchemaValidation.AssertValidAsync(SchemaValidation.SchemaOf("summary"), summary);
        Assert.Contains("1 confirmed", runOut, StringComparison.Ordinal);
        Assert.Contains("Thread.Sleep in Orders.LegacyOrderStore.RoundTrip (OrderService.cs:", runOut, StringComparison.Ordinal);

        var view = await Browser.OpenAsync(Path.Combine(folder, "report.html"), Path.Combine(RepoPaths.Artifacts("screenshots"), "report-scan-plan.png"));
        HtmlReportTests.AssertReadable(view);
        Assert.Contains("Findings from the scan, beside the run", view.Text, StringComparison.Ordinal);
        Assert.Contains("1 confirmed, 0 not seen under that load, 0 not reached, 0 not run.", view.Text, StringComparison.Ordinal);
    }
}
