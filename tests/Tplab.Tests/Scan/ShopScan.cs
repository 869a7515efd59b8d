using Tplab.Scan;
using Tplab.Scan.Config;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Loading;
using Tplab.Scan.Roots;
using Tplab.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan;

/// <summary>
/// The Shop fixture (tests/scan-fixtures/Shop) loaded once by Roslyn's MSBuildWorkspace, as `tplab scan` loads it
/// (restored the first time), and analysed with its own config; tests re-analyse it under other options without reloading.
/// </summary>
public sealed class ShopScan : IAsyncLifetime
{
    public static string Folder => Path.Combine(RepoPaths.Root, "tests", "scan-fixtures", "Shop");

    internal LoadedCode Code { get; private set; } = null!;

    public ScanResult Result { get; private set; } = null!;

    public ScanConfig Config { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        var options = new ScanOptions { Path = Folder };
        Code = await WorkspaceLoader.LoadAsync(ScanInput.Resolve(Folder), options, SilentProgress.Instance, CancellationToken.None);
        Config = ScanConfig.Read(Path.Combine(Folder, ScanConfig.DefaultFileName));
        Result = Analyse();
    }

    public ScanResult Analyse(ScanConfig? config = null, Baseline? baseline = null, int maxDepth = ScanOptions.DefaultMaxDepth) =>
        Scanner.Analyse(Code, new ScanOptions { Path = Folder, MaxDepth = maxDepth }, config ?? Config, baseline ?? new Baseline(), SilentProgress.Instance, TimeSpan.Zero, CancellationToken.None);

    /// <summary>The sites <paramref name="rootKey"/> reaches, each with that entry point's own chain (a report shows only the worst one's).</summary>
    /// <remarks>The builder the scan runs, given that one entry point, as the rules' tests give it theirs (<c>Snippet</c>).</remarks>
    public IReadOnlyList<Finding> From(string rootKey)
    {
        var index = Scanner.Index(Code);
        var graph = new CallGraph(index, new BlockingRules(Config.Entries(), new Callers(index)));
        var roots = RootFinder.Find(index, CancellationToken.None);
        var root = roots.Roots.Single(r => r.Key == rootKey);
        return new FindingBuilder(graph, new LockAnalysis(graph, 40, CancellationToken.None), roots, 40).For(root);
    }

    public Task DisposeAsync()
    {
        Code?.Dispose();
        return Task.CompletedTask;
    }
}

/// <summary>The test classes that read the Shop fixture share one load of it.</summary>
[CollectionDefinition(Name)]
public sealed class ShopScanCollection : ICollectionFixture<ShopScan>
{
    public const string Name = "shop scan";
}
