using Tplab.Scan.Fix.Checks;
using Tplab.Tests.Scan.Fix.Differential;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// Behaviour kept, proven by running it: tests/corpus/FixProbes (the shapes where an await changes what code does)
/// built before and after <c>tplab fix --apply</c>, both started, every fixed endpoint called on its success, error
/// and cancellation paths, 16 at once, and the answers and side effects compared (the differential harness,
/// <see cref="DifferentialRun"/>). One run per class, shared by its tests.
/// </summary>
[Collection(TestCollections.FixHarness)]
public sealed class FixDifferentialTests(FixProbesRun run) : IClassFixture<FixProbesRun>
{
    [Fact]
    public void FixProbes_BeforeAndAfterTheFix_BothCompile()
    {
        var report = run.Report;
        Assert.True(report.Before.Compiles, "the app as written does not build: " + report.Before.Log);
        Assert.True(report.After.Compiles, "the fixed app does not build: " + report.After.Log);
    }

    [Fact]
    public void FixProbes_EveryFixedEndpoint_AnswersAndActsAsBefore()
    {
        var report = run.Report;
        Assert.True(report.After.Compiles, "the fixed app does not build: " + report.After.Log);
        Assert.NotEmpty(report.FixedEndpoints);
        Assert.True(report.Differences.Count == 0, "behaviour changes:\n" + string.Join("\n", report.Differences));
    }

    [Fact]
    public void Harness_AwaitThatChangesTheExceptionShape_IsAFailureNamingTheRequest()
    {
        // The harness can fail: the rewrite TPFIX002 forbids, made by hand, answers the feed's timeout with a 500.
        var report = run.Mutant;
        Assert.True(report.After.Compiles, report.After.Log);
        var difference = Assert.Single(report.Differences);
        Assert.Equal("GET /quotes/ABC-1?scenario=timeout", difference.Request);
        Assert.Equal("16 × 200 list price for ABC-1", difference.Before);
        Assert.Equal("16 × 500 ", difference.After);
    }

    [Fact]
    public void FixProbes_EveryFixedEndpoint_IsCalled()
    {
        var report = run.Report;
        Assert.True(report.FixedEndpointsNotCalled.Count == 0, "fixed but not called: " + string.Join(", ", report.FixedEndpointsNotCalled));
    }

    [Fact]
    public void FixProbes_EveryRefusal_SaysWhy()
    {
        var silent = run.Report.Findings.Where(f => f.Status == "refused" && string.IsNullOrWhiteSpace(f.Reason)).Select(f => $"{f.UserFrame} ({f.BlockingCall})");
        Assert.Empty(silent);
    }

    [Fact]
    public void FixProbes_EveryRefusal_CarriesAStableIdOfTheTable()
    {
        var ids = FixReasons.All.Select(r => r.Id).ToHashSet(StringComparer.Ordinal);
        var refused = run.Report.Findings.Where(f => f.Status == "refused").ToList();
        Assert.NotEmpty(refused);
        var without = refused.Where(f => f.Check is null || !ids.Contains(f.Check)).Select(f => $"{f.UserFrame} ({f.BlockingCall}): {f.Reason}");
        Assert.Empty(without);
    }

    // The shapes of tests/corpus/FixProbes/README.md: what fix must do with each blocking call.
    public static TheoryData<string, string, string, string?> Shapes => new()
    {
        // a wait inside a region its thread owns: refused
        { "FixProbes.Inventory.StockLedger.Reserve", "Task.Wait", "refused", "TPFIX001" },
        { "FixProbes.Catalog.CatalogCache.Refresh", "Task.Result", "refused", "TPFIX001" },
        // the exception a wait throws, read by a catch: kept by a continuation, or refused (Task.WaitAll)
        { "FixProbes.Quotes.PriceReader.Read", "Task.Result", "fixed", null },
        { "FixProbes.Shipping.RateShopper.Cheapest", "Task.WaitAll", "refused", "TPFIX002" },
        // thread-bound state read after the wait, culture set before it: refused
        { "FixProbes.Sessions.TenantReports.LoadTenantSettings", "Thread.Sleep", "refused", "TPFIX003" },
        { "FixProbes.Sessions.ReceiptPrinter.WaitForPrinter", "Thread.Sleep", "refused", "TPFIX003" },
        { "FixProbes.Sessions.LegacySession.Handshake", "Task.Wait", "refused", "TPFIX003" },
        { "FixProbes.Pricing.PriceFormatter.UseMarket", "Task.Wait", "refused", "TPFIX003" },
        // rewritten: the code after the wait still runs when the request is aborted (no token added)
        { "FixProbes.Orders.OrderArchive.Archive", "Thread.Sleep", "fixed", null },
        { "FixProbes.Orders.OrderRepository.Load", "Task.Result", "fixed", null },
        { "FixProbes.Reports.DailyReport.Build", "Thread.Sleep", "fixed", null },
        { "FixProbes.Notifications.NotificationSender.ExecuteAsync", "Thread.Sleep", "fixed", null },
        // a lock around the wait: a SemaphoreSlim; array reads and writes: the Memory overloads
        { "FixProbes.Orders.OrderRepository.NextNumber", "lock (Monitor.Enter)", "fixed", null },
        { "FixProbes.Attachments.AttachmentStore.Save", "FileStream.Read", "fixed", null },
        { "FixProbes.Attachments.AttachmentStore.Save", "FileStream.Write", "fixed", null },
        // no async form: refused with the row's advice
        { "FixProbes.Attachments.AttachmentStore.Save", "File.OpenRead", "refused", "TPFIX010" },
    };

    [Theory]
    [MemberData(nameof(Shapes))]
    public void FixProbes_Shape_FixedOrRefusedByItsCheck(string userFrame, string call, string status, string? check)
    {
        var finding = Assert.Single(run.Report.Findings, f => f.UserFrame == userFrame && f.BlockingCall == call);
        Assert.True(finding.Status == status, $"{userFrame} ({call}): {finding.Status}, expected {status}: {finding.Reason}");
        if (check is not null)
        {
            Assert.Equal(check, finding.Check);
        }
    }
}

/// <summary>
/// One differential run of tests/corpus/FixProbes, shared by the class's tests: the app as written against the app
/// after <c>tplab fix --apply</c>, and against a mutant carrying the rewrite the exception-shape check forbids.
/// </summary>
public sealed class FixProbesRun : IAsyncLifetime
{
    private DifferentialReport? _report;
    private DifferentialReport? _mutant;

    internal DifferentialReport Report => _report ?? throw new InvalidOperationException("the run did not happen");

    internal DifferentialReport Mutant => _mutant ?? throw new InvalidOperationException("the run did not happen");

    public async Task InitializeAsync()
    {
        using var limit = new CancellationTokenSource(TimeSpan.FromMinutes(15));
        using var original = AppCopies.Original(Path.Combine(RepoPaths.Root, "tests", "corpus", "FixProbes"));
        var fixedCopy = DifferentialRun.ChangeAsync(original, AppCopies.FixAsync, limit.Token);
        var mutant = await DifferentialRun.ChangeAsync(original, (folder, _) => PlainAwaitShapeAsync(folder), limit.Token);
        _report = await DifferentialRun.CompareAsync(original, await fixedCopy, limit.Token);
        _mutant = await DifferentialRun.CompareAsync(original, mutant, limit.Token);
    }

    // What a plain await does to the exception a wait threw (the inner one, not the AggregateException), in the one
    // line the exception-shape check guards: PriceReader.Read.
    private static Task<FixOutcome> PlainAwaitShapeAsync(string folder)
    {
        var file = Path.Combine(folder, "Quotes", "QuoteService.cs");
        var text = File.ReadAllText(file);
        Assert.Contains("price.Result.", text, StringComparison.Ordinal);
        File.WriteAllText(file, text.Replace("price.Result.", "price.GetAwaiter().GetResult().", StringComparison.Ordinal));
        return Task.FromResult(new FixOutcome(0, [], null, "the exception shape of a plain await, by hand"));
    }

    public Task DisposeAsync() => Task.CompletedTask;
}
