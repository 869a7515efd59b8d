using ShopApp.Corpus;
using Tplab.Postgres;
using Tplab.Tests.Support;
using Xunit.Abstractions;

namespace Tplab.Tests.Corpus;

/// <summary>
/// diagnose and watch on an app they never saw (tests/corpus/ShopApp): for each endpoint, a fresh shop process under
/// 48 users, diagnose during the load; its top culprit must be the one the shop's code declares next to the
/// endpoint, and the pool watch of the same window must behave as declared (the exact word over the window is the
/// benchmark's: bench/corpus.sh).
/// </summary>
[Collection(TestCollections.Corpus)]
public sealed class ShopCorpusTests(ShopCorpusFixture fixture, ITestOutputHelper output) : IClassFixture<ShopCorpusFixture>
{
    [Theory]
    [InlineData("catalog-sleep")]
    [InlineData("prices-result")]
    [InlineData("cart-result")]
    [InlineData("stock-wait")]
    [InlineData("inventory-lock")]
    [InlineData("shipping-waitall")]
    [InlineData("reports-semaphore")]
    [InlineData("exports-waitone")]
    [InlineData("banners-mres")]
    [InlineData("licenses-mutex")]
    [InlineData("accounts-filter")]
    [InlineData("geo-httpsend")]
    [InlineData("mainframe-socket")]
    [InlineData("webhooks-dns")]
    [InlineData("thumbnails-process")]
    [InlineData("imports-readtoend")]
    [InlineData("fx-di-factory")]
    [InlineData("tenant-middleware")]
    [InlineData("invoice-razor")]
    [InlineData("notifications-background")]
    [InlineData("loyalty-continuation")]
    [InlineData("availability-continuation")]
    [InlineData("documents-taskrun")]
    [InlineData("quotes-timer")]
    [InlineData("catalog-search")]
    [InlineData("prices-live")]
    [InlineData("orders-summary")]
    public Task Diagnose_ShopEndpointUnderLoad_NamesTheDeclaredCulpritAndPoolVerdict(string name) => CheckAsync(name, null);

    [PostgresTheory]
    [InlineData("customers-npgsql")]
    [InlineData("customers-profile")]
    public async Task Diagnose_ShopDatabaseEndpointUnderLoad_NamesTheDeclaredCulpritAndPoolVerdict(string name) =>
        await CheckAsync(name, await fixture.ConnectionStringAsync());

    [Fact]
    public void Corpus_EveryDeclaredEndpoint_IsTested()
    {
        // The CPU-bound case runs alone (ShopCorpusCpuTests): it is tested there.
        var tested = typeof(ShopCorpusTests).GetMethods().Concat(typeof(ShopCorpusCpuTests).GetMethods())
            .SelectMany(m => m.GetCustomAttributes(typeof(InlineDataAttribute), false).Cast<InlineDataAttribute>())
            .Select(d => (string)d.GetData(null!).Single()[0])
            .Order(StringComparer.Ordinal);

        Assert.Equal(ShopCorpus.Cases.Select(c => c.Case).Order(StringComparer.Ordinal), tested);
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
