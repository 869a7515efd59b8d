using ShopApp.Corpus;
using Tplab.Tests.Scan.Truth;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan;

/// <summary>
/// The scan truth (tests/corpus/scan-truth.json) against the sources it describes: every snippet resolves to one line,
/// every hop sits in the method it names, and the shop's static expectations agree with its runtime ones (ShopCorpus).
/// </summary>
[ParallelSafe]
public sealed class ScanTruthTests
{
    private static readonly ScanTruth Truth = ScanTruthLoader.Load(RepoPaths.Root);

    [Fact]
    public void Load_CorpusTruth_MatchesTheSources() =>
        Assert.True(Truth.Problems.Count == 0, "scan-truth.json disagrees with the sources:\n" + string.Join('\n', Truth.Problems));

    [Fact]
    public void Load_CorpusTruth_CoversTheFourAppsWithEnoughCases()
    {
        Assert.Equal(["ScanCases", "ShopApp", "OrdersService", "Target"], Truth.Apps.Select(a => a.Name));
        var cases = Truth.App("ScanCases");
        Assert.InRange(cases.Roots.Count, 25, 50);
        Assert.True(cases.Blocking.Count() >= 20);
        Assert.True(cases.Roots.Count(r => r.Verdict == Verdict.Clean) >= 6);
        // Every place a scan must know, at least once.
        Assert.Empty(new[] { "minimal-api", "mvc-action", "razor-page", "middleware", "filter", "delegating-handler", "health-check", "hosted-service", "timer", "di-factory" }
            .Except(cases.Roots.Select(r => r.Root.Place)));
    }

    [Fact]
    public void Load_ShopApp_EveryRuntimeCaseHasAStaticExpectationThatAgrees()
    {
        var shop = Truth.App("ShopApp");
        var differences = new List<string>();
        foreach (var expected in ShopCorpus.Cases)
        {
            var root = shop.Roots.FirstOrDefault(r => r.Case == expected.Case);
            if (root is null)
            {
                differences.Add($"{expected.Case}: no static expectation");
                continue;
            }
            if ((expected.Illness == Illness.Blocking) != (root.Verdict == Verdict.Blocking))
            {
                differences.Add($"{expected.Case}: runtime {expected.Illness}, static {root.Verdict}");
            }
            if (expected.Illness == Illness.Blocking && root.UserMethod != "ShopApp." + expected.UserMethod)
            {
                differences.Add($"{expected.Case}: runtime user method ShopApp.{expected.UserMethod}, static {root.UserMethod}");
            }
            if (expected.Illness == Illness.Blocking && root.BlockingCall != expected.BlockingCall && root.BlockingCall != expected.OtherBlockingCall)
            {
                differences.Add($"{expected.Case}: runtime blocking call {expected.BlockingCall}, static {root.BlockingCall}");
            }
            if (expected.NeedsDatabase != root.NeedsDatabase)
            {
                differences.Add($"{expected.Case}: runtime needsDatabase {expected.NeedsDatabase}, static {root.NeedsDatabase}");
            }
        }
        Assert.True(differences.Count == 0, string.Join('\n', differences));
    }

    [Theory]
    // One anchor, unique in the file.
    [InlineData(new[] { "b.Wait()" }, 2)]
    // Anchors in order: the first unique, the next found at or after it.
    [InlineData(new[] { "void Second(", "lock (_gate)" }, 6)]
    [InlineData(new[] { "void First(", "lock (_gate)" }, 3)]
    // Not found, or on several lines: no line (a problem).
    [InlineData(new[] { "nowhere" }, 0)]
    [InlineData(new[] { "lock (_gate)" }, 0)]
    [InlineData(new[] { "void Second(", "b.Wait()" }, 0)]
    public void Resolve_Anchors_FindTheLineOrNone(string[] anchors, int expected)
    {
        string[] lines = ["void First() {", "  b.Wait();", "  lock (_gate) { }", "}", "void Second() {", "  lock (_gate) { }", "}"];

        Assert.Equal(expected, ScanTruthLoader.Resolve(lines, anchors, out _));
    }

    [Theory]
    [InlineData("Shop.Orders.OrderService.Find", 7, null)]
    [InlineData("Shop.Orders.OrderService.Place", 7, "the nearest member declared above is Find, not Place")]
    [InlineData("Shop.Orders.Cart.Find", 7, "Find is declared in OrderService, not Cart")]
    [InlineData("Other.Orders.OrderService.Find", 7, "the file does not declare namespace Other.Orders")]
    [InlineData("Shop.Orders.OrderService.Find", 3, "no member declared above the line (expected Find)")]
    [InlineData("Program.<Main>$", 1, null)]
    public void MethodCheck_CallSite_IsInTheNamedMethod(string method, int line, string? problem)
    {
        string[] lines =
        [
            "namespace Shop.Orders;",
            "public sealed class OrderService(Store store)",
            "{",
            "    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(1);",
            "    public Order Find(int id)",
            "    {",
            "        return store.Load(id).Result;",
            "    }",
            "}",
        ];

        Assert.Equal(problem, MethodCheck.Problem(lines, method, line));
    }
}
