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
            Findings = [new BaselineKey(FindingId.For("Shop.Orders.Load", "Thread.Sleep", 0), "Shop.Orders.Load", "Thread.Sleep"), new BaselineKey(FindingId.For("Shop.Tenant.Resolve", "Task.Result", 1), "Shop.Tenant.Resolve", "Task.Result")],
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
        var baseline = new Baseline { Findings = [new BaselineKey(FindingId.For("Shop.Orders.Load", "Thread.Sleep", 0), "Shop.Orders.Load", "Thread.Sleep")] };

        Assert.True(baseline.Contains(new BaselineKey(FindingId.For("Shop.Orders.Load", "Thread.Sleep", 0), "Shop.Orders.Load", "Thread.Sleep")));
        Assert.False(baseline.Contains(new BaselineKey(FindingId.For("Shop.Orders.Load", "Thread.Sleep", 1), "Shop.Orders.Load", "Thread.Sleep")));
    }

    [Fact]
    public void Read_Schema1KeyedByEntryPoint_AcceptsTheMethodsCallsOfThatName()
    {
        var path = Path.Combine(Path.GetTempPath(), $"tplab-baseline-{Guid.NewGuid():N}.json");
        File.WriteAllText(path, """{ "schema": 1, "tool": "tplab scan", "findings": [ { "root": "GET /old-route", "userMethod": "Shop.Orders.Load", "blockingCall": "Thread.Sleep" } ] }""");
        try
        {
            var baseline = Baseline.Read(path);

            Assert.True(baseline.Contains(new BaselineKey(FindingId.For("Shop.Orders.Load", "Thread.Sleep", 1), "Shop.Orders.Load", "Thread.Sleep")));
            Assert.False(baseline.Contains(new BaselineKey(FindingId.For("Shop.Orders.Load", "Task.Wait", 0), "Shop.Orders.Load", "Task.Wait")));
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
