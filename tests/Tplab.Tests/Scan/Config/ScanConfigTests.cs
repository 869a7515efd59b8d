using Tplab.Common;
using Tplab.Scan.Config;
using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Config;

[ParallelSafe]
public sealed class ScanConfigTests
{
    [Fact]
    public void Write_ThenRead_KeepsTheBlockingCalls()
    {
        var config = new ScanConfig { BlockingCalls = [new BlockingApi("Acme.Soap.Client", ["Call", "Invoke"], "sync-http", "Client.Call")] };
        var path = Path.Combine(Path.GetTempPath(), $"tplab-scan-{Guid.NewGuid():N}.json");
        try
        {
            config.Write(path);
            var read = ScanConfig.Read(path);
            var api = Assert.Single(read.BlockingCalls);
            Assert.Equal(("Acme.Soap.Client", "sync-http", "Client.Call"), (api.Type, api.Kind, api.Name));
            Assert.Equal(["Call", "Invoke"], api.Methods);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Theory]
    [InlineData("""{"schema": 1, "blockingCalls": [{"type": "A.B", "methods": ["C"], "kind": "slow"}]}""", "kind 'slow'")]
    [InlineData("""{"schema": 1, "blockingCalls": [{"type": "A.B", "methods": [], "kind": "sleep"}]}""", "at least one method")]
    [InlineData("""{"schema": 2}""", "schema 2")]
    [InlineData("""[1, 2]""", "not a tplab scan config")]
    public void Read_BadConfig_IsAUsageErrorNamingTheFile(string text, string message)
    {
        var path = Path.Combine(Path.GetTempPath(), $"tplab-scan-{Guid.NewGuid():N}.json");
        File.WriteAllText(path, text);
        try
        {
            var error = Assert.Throws<TplabException>(() => ScanConfig.Read(path));
            Assert.Equal(ExitCodes.Usage, error.ExitCode);
            Assert.Contains(message, error.Message, StringComparison.Ordinal);
            Assert.Contains(path, error.Message, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void Entries_TeamsOwnLibraryCall_IsReported()
    {
        var config = new ScanConfig { BlockingCalls = [new BlockingApi("System.Net.Http.HttpClient", ["CancelPendingRequests"], "sync-http")] };
        var findings = Snippet.Findings("public static class Root { public static void Handle() => new HttpClient().CancelPendingRequests(); }", config);
        Assert.Equal("HttpClient.CancelPendingRequests", Assert.Single(findings).Call.Name);
    }
}
