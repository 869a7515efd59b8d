using System.Diagnostics;
using Microsoft.CodeAnalysis;
using Tplab.Common;
using Tplab.Lab.Plans;
using Tplab.Scan;
using Tplab.Scan.Findings;
using Tplab.Scan.Fix;
using Tplab.Scan.Loading;
using Tplab.Tests.Support;
using Tplab.Scan.Fix.Selecting;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// The proof issue 27 asks for, on the OrdersService (a service written the way teams write one: minimal APIs, a
/// service layer, a legacy store whose Thread.Sleep sits four calls below the endpoint), copied to a folder of its
/// own: fix --apply rewrites the chain, the copy compiles under the repository's own settings (warnings as errors),
/// scan no longer reports the fixed finding, a second fix changes nothing, and the patch git applies to a fresh copy
/// gives the same files. The tests read the fix lane's shared copies (<see cref="OrdersCopies"/>): the original, which
/// none edits, and the one <c>fix --apply</c> wrote.
/// </summary>
[Collection(TestCollections.Fix)]
public sealed class FixProofTests(OrdersCopies copies)
{
    [Fact]
    public async Task FixApply_OrdersService_CompilesScanCleanSecondRunChangesNothing()
    {
        var before = await copies.ScanAsync();
        var ids = FixSelection.Targets(before.Findings).Select(t => t.Id).ToList();
        Assert.NotEmpty(ids);

        var applied = await copies.AppliedAsync();
        var app = applied.App;
        Assert.True(applied.Code == ExitCodes.Ok, applied.Report);
        Assert.Contains("\"status\": \"fixed\"", applied.Report, StringComparison.Ordinal);
        var service = File.ReadAllText(Path.Combine(app, "OrderService.cs"));
        Assert.Contains("await Task.Delay(LatencyMs)", service, StringComparison.Ordinal);
        Assert.DoesNotContain("Thread.Sleep", service, StringComparison.Ordinal);
        Assert.Contains("await orders.FindAsync(id)", File.ReadAllText(Path.Combine(app, "Program.cs")), StringComparison.Ordinal);

        Assert.Empty(await CompileErrorsAsync(app));
        var after = await ScanAsync(app);
        var left = FixSelection.Targets(after.Findings).Select(t => t.Id).Intersect(ids).ToList();
        Assert.True(left.Count == 0, "scan still reports " + string.Join(", ", left));

        var (again, secondReport) = await RunAsync(new FixOptions { Path = app, Format = "patch" });
        Assert.Equal(ExitCodes.Ok, again);
        Assert.True(secondReport.Length == 0, "the second run changed: " + secondReport);
    }

    [GitFact]
    public async Task FixPatch_GitApplyOnAFreshCopy_GivesTheFilesApplyWrites()
    {
        var git = GitFactAttribute.Git;
        var (code, patch) = await RunAsync(new FixOptions { Path = copies.Original });
        Assert.Equal(ExitCodes.Ok, code);
        // git apply needs no restore or load: a fresh copy of the sources is all it reads.
        var fresh = Copy();
        try
        {
            var patchFile = Path.Combine(fresh, "fix.patch");
            File.WriteAllText(patchFile, patch);
            var apply = Process.Start(new ProcessStartInfo(git!, ["apply", "--whitespace=nowarn", patchFile]) { WorkingDirectory = Path.Combine(fresh, "Tplab.OrdersService"), RedirectStandardError = true })!;
            var error = await apply.StandardError.ReadToEndAsync();
            await apply.WaitForExitAsync();
            Assert.True(apply.ExitCode == 0, "git apply: " + error);

            var applied = await copies.AppliedAsync();
            Assert.Equal(ExitCodes.Ok, applied.Code);
            foreach (var file in new[] { "OrderService.cs", "Program.cs" })
            {
                Assert.Equal(File.ReadAllBytes(Path.Combine(applied.App, file)), File.ReadAllBytes(Path.Combine(fresh, "Tplab.OrdersService", file)));
            }
        }
        finally
        {
            Directory.Delete(fresh, recursive: true);
        }
    }

    [Fact]
    public async Task FixSelection_RouteAndId_SelectTheFindingOrRefuseInOneLine()
    {
        var app = copies.Original;
        var id = FindingId.For("Tplab.OrdersService", "Orders.LegacyOrderStore.RoundTrip", "Thread.Sleep", 0);
        var (code, json) = await RunAsync(new FixOptions { Path = app, Route = "GET /orders/{id:int}", FindingIds = [id], Severity = Severity.Error, Format = "json" });
        Assert.Equal(ExitCodes.Ok, code);
        Assert.Contains($"\"id\": \"{id}\"", json, StringComparison.Ordinal);

        var noRoute = await Assert.ThrowsAsync<TplabException>(() => RunAsync(new FixOptions { Path = app, Route = "/nope" }));
        Assert.Equal(ExitCodes.Usage, noRoute.ExitCode);
        Assert.Contains("no finding on /nope", noRoute.Message, StringComparison.Ordinal);
        var other = FindingId.For("Tplab.OrdersService", "Orders.OrderService.Find", "Thread.Sleep", 0);
        var noId = await Assert.ThrowsAsync<TplabException>(() => RunAsync(new FixOptions { Path = app, FindingIds = [other] }));
        Assert.Contains($"no finding {other}", noId.Message, StringComparison.Ordinal);
        AssertUnedited(app);
    }

    [Fact]
    public async Task FixPlan_OrdersService_ReadsBackAndLoadsTheFixedEndpoint()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-fix-plan-").FullName;
        try
        {
            var app = copies.Original;
            var planPath = Path.Combine(folder, "proof.yaml");
            var (code, patch) = await RunAsync(new FixOptions { Path = app, Plan = planPath });
            Assert.Equal(ExitCodes.Ok, code);
            Assert.Contains("OrderService.cs", patch, StringComparison.Ordinal);

            // scan's plan for the fixed finding: the GET that reaches it, its route filled, the finding it checks.
            var plan = PlanReader.Read(planPath);
            var scenario = Assert.Single(plan.Scenarios);
            Assert.Equal("/orders/1", scenario.Requests[0].Path);
            var check = Assert.Single(scenario.Checks);
            Assert.Equal(("Orders.LegacyOrderStore.RoundTrip", "Thread.Sleep", "GET /orders/{id:int}"), (check.UserMethod, check.BlockingCall, check.Root));
            Assert.StartsWith("# Written by tplab fix --plan", File.ReadAllText(planPath), StringComparison.Ordinal);
            // Without --apply nothing was edited: the plan is run on the code as it is first.
            AssertUnedited(app);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [SchemaFact]
    public async Task FixJson_ValidatesAgainstItsSchema()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-fix-json-").FullName;
        try
        {
            var (code, json) = await RunAsync(new FixOptions { Path = copies.Original, Format = "json" });
            Assert.Equal(ExitCodes.Ok, code);
            var report = Path.Combine(folder, "fix.json");
            File.WriteAllText(report, json);
            await SchemaValidation.AssertValidAsync(SchemaValidation.SchemaOf("fix"), report);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static void AssertUnedited(string app) =>
        Assert.Equal(File.ReadAllText(Path.Combine(RepoPaths.Root, "tests", "Tplab.OrdersService", "OrderService.cs")), File.ReadAllText(Path.Combine(app, "OrderService.cs")));

    // The service and the repository's build settings (its csproj takes the framework from them), without build output.
    internal static string Copy()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-fix-").FullName;
        File.Copy(Path.Combine(RepoPaths.Root, "Directory.Build.props"), Path.Combine(folder, "Directory.Build.props"));
        var source = Path.Combine(RepoPaths.Root, "tests", "Tplab.OrdersService");
        var target = Directory.CreateDirectory(Path.Combine(folder, "Tplab.OrdersService")).FullName;
        foreach (var file in Directory.GetFiles(source))
        {
            File.Copy(file, Path.Combine(target, Path.GetFileName(file)));
        }
        return folder;
    }

    internal static async Task<(int Code, string Output)> RunAsync(FixOptions options)
    {
        var output = new StringWriter();
        var code = await FixRun.RunAsync(options, SilentProgress.Instance, output, CancellationToken.None);
        return (code, output.ToString());
    }

    private static Task<ScanResult> ScanAsync(string path) => Scanner.ScanAsync(new ScanOptions { Path = path }, SilentProgress.Instance, CancellationToken.None);

    private static async Task<IReadOnlyList<string>> CompileErrorsAsync(string path)
    {
        using var code = await WorkspaceLoader.LoadAsync(ScanInput.Resolve(path), new ScanOptions { Path = path }, SilentProgress.Instance, CancellationToken.None);
        Assert.Empty(code.Skipped);
        return [.. code.Projects.SelectMany(p => p.Compilation.GetDiagnostics()).Where(d => d.Severity == DiagnosticSeverity.Error).Select(d => d.ToString())];
    }
}

/// <summary>A test that needs git: skipped, with the reason, where it is not installed.</summary>
public sealed class GitFactAttribute : FactAttribute
{
    public static string? Git { get; } = new[] { "/usr/bin/git", "/usr/local/bin/git" }.FirstOrDefault(File.Exists);

    public GitFactAttribute()
    {
        if (Git is null)
        {
            Skip = "git is not installed";
        }
    }
}
