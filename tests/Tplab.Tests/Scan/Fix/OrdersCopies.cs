using Tplab.Scan;
using Tplab.Scan.Fix;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// Two copies of the orders service for the fix lane's classes, each made (and restored, by its first load) once per
/// run instead of once per test: <see cref="Original"/>, which no test edits (scan, fix without <c>--apply</c>, its
/// patch, its SARIF log), and <see cref="AppliedAsync"/>, one <c>fix --apply</c> whose files the tests read. Each is made
/// when a test first asks for it, so a class run alone pays only for what it reads; a failure is the asking test's.
/// </summary>
public sealed class OrdersCopies : IDisposable
{
    private readonly Lazy<string> _original = new(FixProofTests.Copy);
    private readonly Lazy<Task<ScanResult>> _scan;
    private readonly Lazy<Task<(int Code, string Output)>> _sarif;
    private readonly Lazy<Task<Applied>> _applied;

    public OrdersCopies()
    {
        _scan = new(() => Scanner.ScanAsync(new ScanOptions { Path = Original }, SilentProgress.Instance, CancellationToken.None));
        _sarif = new(() => FixProofTests.RunAsync(new FixOptions { Path = Original, Format = "sarif" }));
        _applied = new(ApplyAsync);
    }

    /// <summary>The service's folder in the copy nothing edits.</summary>
    public string Original => Path.Combine(_original.Value, "Tplab.OrdersService");

    /// <summary>The folder <see cref="Original"/> is in, with the repository's build settings beside it.</summary>
    public string OriginalRoot => _original.Value;

    /// <summary>scan's result on <see cref="Original"/>.</summary>
    public Task<ScanResult> ScanAsync() => _scan.Value;

    /// <summary><c>fix --format sarif</c> on <see cref="Original"/>.</summary>
    public Task<(int Code, string Output)> SarifAsync() => _sarif.Value;

    /// <summary><c>fix --apply --force --format json</c> on a copy of its own: its exit code, its report and where it wrote.</summary>
    public Task<Applied> AppliedAsync() => _applied.Value;

    public void Dispose()
    {
        if (_original.IsValueCreated)
        {
            Directory.Delete(_original.Value, recursive: true);
        }
        if (_applied.IsValueCreated && _applied.Value.IsCompletedSuccessfully)
        {
            Directory.Delete(_applied.Value.Result.Root, recursive: true);
        }
    }

    private static async Task<Applied> ApplyAsync()
    {
        var root = FixProofTests.Copy();
        try
        {
            var (code, report) = await FixProofTests.RunAsync(new FixOptions { Path = Path.Combine(root, "Tplab.OrdersService"), Apply = true, Force = true, Format = "json" });
            return new Applied(code, report, root);
        }
        catch
        {
            Directory.Delete(root, recursive: true);
            throw;
        }
    }

    /// <summary>What <c>fix --apply</c> gave: its exit code, its JSON report, and the copy it wrote in.</summary>
    public sealed record Applied(int Code, string Report, string Root)
    {
        /// <summary>The service's folder in the copy.</summary>
        public string App => Path.Combine(Root, "Tplab.OrdersService");
    }
}

/// <summary>The fix lane (<see cref="TestCollections.Fix"/>) and the copies its classes share.</summary>
[CollectionDefinition(TestCollections.Fix)]
public sealed class FixLane : ICollectionFixture<OrdersCopies>;
