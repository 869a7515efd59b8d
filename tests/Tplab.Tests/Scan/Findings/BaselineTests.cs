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
            Findings = [new BaselineKey("GET /orders/{id}", "Shop.Orders.Load", "Thread.Sleep"), new BaselineKey("middleware Shop.Tenant.InvokeAsync", "Shop.Tenant.Resolve", "Task.Result")],
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

    [Theory]
    [InlineData("{ not json", "not a tplab scan baseline")]
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
