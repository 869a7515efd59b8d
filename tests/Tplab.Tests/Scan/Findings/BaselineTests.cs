using Tplab.Scan.Findings;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Findings;

[ParallelSafe]
public sealed class BaselineTests
{
    [Fact]
    public void Write_ThenRead_KeepsEveryKey()
    {
        var baseline = new Baseline
        {
            Findings = [new BaselineKey(FindingId.For("Shop", "Shop.Orders.Load", "Thread.Sleep", 0), "Shop.Orders.Load", "Thread.Sleep"), new BaselineKey(FindingId.For("Shop", "Shop.Tenant.Resolve", "Task.Result", 1), "Shop.Tenant.Resolve", "Task.Result")],
        };
        var writer = new StringWriter();
        baseline.Write(writer);
        var path = Path.Combine(Path.GetTempPath(), $"tplab-baseline-{Guid.NewGuid():N}.json");
        File.WriteAllText(path, writer.ToString());
        try
        {
            Assert.Equal(baseline.Findings, Baseline.Read(path).Findings);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void Contains_KeyedBySite_AcceptsItFromAnyEntryPointButNotAnotherCallOfTheMethod()
    {
        var baseline = new Baseline { Findings = [new BaselineKey(FindingId.For("Shop", "Shop.Orders.Load", "Thread.Sleep", 0), "Shop.Orders.Load", "Thread.Sleep")] };

        Assert.True(baseline.Contains(new BaselineKey(FindingId.For("Shop", "Shop.Orders.Load", "Thread.Sleep", 0), "Shop.Orders.Load", "Thread.Sleep")));
        Assert.False(baseline.Contains(new BaselineKey(FindingId.For("Shop", "Shop.Orders.Load", "Thread.Sleep", 1), "Shop.Orders.Load", "Thread.Sleep")));
    }

    [Fact]
    public void Read_Schema1KeyedByEntryPoint_AcceptsTheMethodsCallsOfThatName()
    {
        var path = Path.Combine(Path.GetTempPath(), $"tplab-baseline-{Guid.NewGuid():N}.json");
        File.WriteAllText(path, """{ "schema": 1, "tool": "tplab scan", "findings": [ { "root": "GET /old-route", "userMethod": "Shop.Orders.Load", "blockingCall": "Thread.Sleep" } ] }""");
        try
        {
            var baseline = Baseline.Read(path);

            Assert.True(baseline.Contains(new BaselineKey(FindingId.For("Shop", "Shop.Orders.Load", "Thread.Sleep", 1), "Shop.Orders.Load", "Thread.Sleep")));
            Assert.False(baseline.Contains(new BaselineKey(FindingId.For("Shop", "Shop.Orders.Load", "Task.Wait", 0), "Shop.Orders.Load", "Task.Wait")));
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void Contains_CurrentSchema_ASiteOfProjectANeverSilencesTheSameSiteOfProjectB()
    {
        var a = new BaselineKey(FindingId.For("Shop.A", "Shop.Orders.Load", "Thread.Sleep", 0), "Shop.Orders.Load", "Thread.Sleep") { IdWithoutProject = FindingId.WithoutProject("Shop.Orders.Load", "Thread.Sleep", 0) };
        var b = new BaselineKey(FindingId.For("Shop.B", "Shop.Orders.Load", "Thread.Sleep", 0), "Shop.Orders.Load", "Thread.Sleep") { IdWithoutProject = FindingId.WithoutProject("Shop.Orders.Load", "Thread.Sleep", 0) };
        var baseline = new Baseline { Findings = [a] };

        Assert.NotEqual(a.Id, b.Id);
        Assert.True(baseline.Contains(a));
        Assert.False(baseline.Contains(b));
    }

    [Fact]
    public void Read_Schema2IdsWithoutTheProject_StillMatchTheirSite()
    {
        var path = Path.Combine(Path.GetTempPath(), $"tplab-baseline-{Guid.NewGuid():N}.json");
        var old = FindingId.WithoutProject("Shop.Orders.Load", "Thread.Sleep", 0);
        File.WriteAllText(path, $$"""{ "schema": 2, "tool": "tplab scan", "findings": [ { "id": "{{old}}", "userMethod": "Shop.Orders.Load", "blockingCall": "Thread.Sleep" } ] }""");
        try
        {
            var baseline = Baseline.Read(path);

            Assert.True(baseline.Contains(new BaselineKey(FindingId.For("Shop", "Shop.Orders.Load", "Thread.Sleep", 0), "Shop.Orders.Load", "Thread.Sleep") { IdWithoutProject = old }));
            Assert.False(baseline.Contains(new BaselineKey(FindingId.For("Shop", "Shop.Orders.Load", "Thread.Sleep", 1), "Shop.Orders.Load", "Thread.Sleep") { IdWithoutProject = FindingId.WithoutProject("Shop.Orders.Load", "Thread.Sleep", 1) }));
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Theory]
    [InlineData("{ not json", "not a tplab scan baseline")]
    [InlineData("{\"findings\": []}", "not a tplab scan baseline")]
    [InlineData("{\"schema\": 1, \"findings\": [ { \"root\": \"GET /\" } ]}", "needs userMethod and blockingCall")]
    [InlineData("{\"schema\": 7, \"findings\": []}", "schema 7")]
    public void Read_BadFile_IsAUsageError(string text, string message)
    {
        var path = Path.Combine(Path.GetTempPath(), $"tplab-baseline-{Guid.NewGuid():N}.json");
        File.WriteAllText(path, text);
        try
        {
            var error = Assert.Throws<Tplab.Common.TplabException>(() => Baseline.Read(path));
            Assert.Equal(Tplab.Common.ExitCodes.Usage, error.ExitCode);
            Assert.Contains(message, error.Message, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(path);
        }
    }
}
