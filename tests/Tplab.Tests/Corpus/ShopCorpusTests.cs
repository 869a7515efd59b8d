using ShopApp.Corpus;
using Tplab.Postgres;
using Tplab.Tests.Support;
using Xunit.Abstractions;

namespace Tplab.Tests.Corpus;

/// <summary>
/// diagnose and watch on an app they never saw (tests/corpus/ShopApp): for an endpoint, a fresh shop process under
/// 48 users, diagnose during the load; its top culprit must be the one the shop's code declares next to the
/// endpoint, and the pool watch of the same window must behave as declared (the exact word over the window is the
/// benchmark's: bench/corpus.sh).
/// </summary>
/// <remarks>
/// The suite runs one endpoint of each kind the corpus declares: each place (minimal API, MVC action, Razor Page,
/// middleware, filter, background service, DI factory, timer), each way the code runs (continuation, task-run), each
/// pool word (starving, lock-contention, healthy, none declared), the request body, the database, and each way a thread
/// waits (a managed wait under <c>.Result</c>/<c>.Wait()</c>/<c>GetResult</c>, sleep, a wait handle, a monitor, a
/// socket, a call named over the calls inside it, native code). The endpoints in <see cref="InBenchOnly"/> repeat one
/// of those kinds with another call name; <c>bench/corpus.sh</c> runs every endpoint (each on its fresh process, a 5 s
/// capture, the exact pool word, the dump compared), which is where they are checked. Each case costs a shop start,
/// 4 s of 48 users and a trace: about 10 s of the corpus lane and 4 s of CPU.
/// </remarks>
[Collection(TestCollections.Corpus)]
public sealed class ShopCorpusTests(ShopCorpusFixture fixture, ITestOutputHelper output) : IClassFixture<ShopCorpusFixture>
{
    [Theory]
    [InlineData("catalog-sleep")]
    [InlineData("cart-result")]
    [InlineData("invoice-razor")]
    [InlineData("tenant-middleware")]
    [InlineData("accounts-filter")]
    [InlineData("notifications-background")]
    [InlineData("fx-di-factory")]
    [InlineData("quotes-timer")]
    [InlineData("loyalty-continuation")]
    [InlineData("documents-taskrun")]
    [InlineData("inventory-lock")]
    [InlineData("exports-waitone")]
    [InlineData("mainframe-socket")]
    [InlineData("geo-httpsend")]
    [InlineData("webhooks-dns")]
    [InlineData("imports-readtoend")]
    [InlineData("prices-live")]
    [InlineData("orders-summary")]
    public Task Diagnose_ShopEndpointUnderLoad_NamesTheDeclaredCulpritAndPoolVerdict(string name) => CheckAsync(name, null);

    [PostgresTheory]
    [InlineData("customers-npgsql")]
    public async Task Diagnose_ShopDatabaseEndpointUnderLoad_NamesTheDeclaredCulpritAndPoolVerdict(string name) =>
        await CheckAsync(name, await fixture.ConnectionStringAsync());

    /// <summary>
    /// The endpoints bench/corpus.sh checks and the suite does not, each the kind of a case the suite runs, with the
    /// call that differs: the case it repeats is named.
    /// </summary>
    public static readonly IReadOnlyList<string> InBenchOnly =
    [
        "prices-result", // cart-result's Task.Result, in a minimal API (catalog-sleep's place)
        "stock-wait", // accounts-filter's Task.Wait, in a minimal API
        "shipping-waitall", // a managed wait on tasks, as cart-result's and accounts-filter's
        "reports-semaphore", // a managed wait (SemaphoreSlim.Wait) in an MVC action, as cart-result's
        "banners-mres", // a managed wait (ManualResetEventSlim.Wait) in a minimal API
        "licenses-mutex", // exports-waitone's WaitHandle.WaitOne, on a Mutex
        "thumbnails-process", // a call named over a wait handle inside it, as geo-httpsend's over its socket
        "availability-continuation", // mainframe-socket's socket read, in loyalty-continuation's continuation
        "catalog-search", // a healthy minimal API, as prices-live
        "customers-profile", // healthy async Npgsql (the lab target's db-async in BlockingDiagnoserTests)
    ];

    [Fact]
    public void Corpus_EveryDeclaredEndpoint_IsTestedHereOrInTheBench()
    {
        // The CPU-bound case runs alone (ShopCorpusCpuTests): it is tested there.
        var tested = typeof(ShopCorpusTests).GetMethods().Concat(typeof(ShopCorpusCpuTests).GetMethods())
            .SelectMany(m => m.GetCustomAttributes(typeof(InlineDataAttribute), false).Cast<InlineDataAttribute>())
            .Select(d => (string)d.GetData(null!).Single()[0])
            .ToList();

        Assert.Empty(tested.Intersect(InBenchOnly, StringComparer.Ordinal));
        Assert.Equal(ShopCorpus.Cases.Select(c => c.Case).Order(StringComparer.Ordinal), tested.Concat(InBenchOnly).Order(StringComparer.Ordinal));
        // Every kind the corpus declares keeps a case in the suite: each place, each way the code runs, each pool word, each illness.
        var suite = ShopCorpus.Cases.Where(c => tested.Contains(c.Case)).ToList();
        Assert.Equal(Enum.GetValues<Place>().ToHashSet(), suite.Select(c => c.Where).ToHashSet());
        Assert.Equal(ShopCorpus.Cases.Select(c => c.RunsIn).ToHashSet(), suite.Select(c => c.RunsIn).ToHashSet());
        Assert.Equal(ShopCorpus.Cases.Select(c => c.Pool).ToHashSet(), suite.Select(c => c.Pool).ToHashSet());
        Assert.Equal(ShopCorpus.Cases.Select(c => c.Illness).ToHashSet(), suite.Select(c => c.Illness).ToHashSet());
        Assert.Equal(ShopCorpus.Cases.Select(c => c.Method).ToHashSet(), suite.Select(c => c.Method).ToHashSet());
        Assert.Contains(suite, c => c.NeedsDatabase && c.OtherBlockingCall is not null);
        Assert.True(ShopCorpus.Cases.Count(c => c.Illness == Illness.Blocking) >= 15);
        Assert.True(ShopCorpus.Cases.Count(c => c.Illness != Illness.Blocking) >= 4);
    }

    [Fact]
    public void Corpus_EveryDeclaredLine_IsOnOneLineOfItsFile()
    {
        var hops = ShopCorpus.Cases.SelectMany(c => c.Chain).ToList();

        Assert.True(hops.Count >= 40, $"{hops.Count} hops declared");
        foreach (var hop in hops)
        {
            Assert.True(CorpusSource.LineOf(hop.File, hop.Line) > 0);
            Assert.True(hop.OrLine is null || CorpusSource.LineOf(hop.File, hop.OrLine) > 0);
        }
        // Every blocking endpoint declares its chain, and a place of each kind diagnose must get right is in the corpus.
        Assert.All(ShopCorpus.Cases.Where(c => c.Illness == Illness.Blocking), c => Assert.NotEmpty(c.Chain));
        Assert.Superset(new HashSet<Place>(Enum.GetValues<Place>()), ShopCorpus.Cases.Select(c => c.Where).ToHashSet());
        Assert.Contains(ShopCorpus.Cases, c => c.RunsIn == "continuation");
        Assert.Contains(ShopCorpus.Cases, c => c.RunsIn == "task-run" && c.Where != Place.BackgroundService);
    }

    private Task CheckAsync(string name, string? connectionString) => CheckAsync(name, connectionString, output);

    /// <summary>One endpoint of the shop under load, diagnosed and watched, judged against what the shop's code declares.</summary>
    internal static async Task CheckAsync(string name, string? connectionString, ITestOutputHelper output)
    {
        var expected = ShopCorpus.Cases.Single(c => c.Case == name);
        var outcome = await CorpusRun.RunAsync(expected, connectionString);
        var differences = CorpusJudge.Differences(outcome, exactPoolWord: false);
        output.WriteLine(CorpusReport.Describe(outcome, differences));
        CorpusReport.Append(outcome, differences);
        Assert.True(differences.Count == 0, string.Join("\n", differences));
    }
}

/// <summary>A private PostgreSQL for the shop's database endpoints, started on first use.</summary>
public sealed class ShopCorpusFixture : IAsyncLifetime
{
    private PrivatePostgres? _postgres;

    public async Task<string> ConnectionStringAsync() =>
        (_postgres ??= await PrivatePostgres.StartAsync()).ConnectionString;

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync()
    {
        if (_postgres is not null)
        {
            await _postgres.DisposeAsync();
        }
    }
}
