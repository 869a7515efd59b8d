using Tplab.Tests.Support;

namespace Tplab.Tests.Watch.Export;

/// <summary>The alert rules shipped in deploy/prometheus pass Prometheus's own checks and their unit tests.</summary>
public sealed class AlertRuleTests
{
    private static string Folder => Path.Combine(RepoPaths.Root, "deploy", "prometheus");

    [PrometheusFact]
    public async Task Promtool_CheckRules_AcceptsTheAlerts()
    {
        var (exit, text) = await Preconditions.RunToolAsync(Preconditions.Promtool!, TimeSpan.FromSeconds(30), "check", "rules", Path.Combine(Folder, "tplab-alerts.yml"));

        Assert.True(exit == 0, text);
        Assert.Contains("SUCCESS: 2 rules found", text, StringComparison.Ordinal);
    }

    [PrometheusFact]
    public async Task Promtool_TestRules_StarvingFiresAfter30sWithTheCulpritsLabels()
    {
        var (exit, text) = await Preconditions.RunToolAsync(Preconditions.Promtool!, TimeSpan.FromSeconds(30), "test", "rules", Path.Combine(Folder, "tplab-alerts.test.yml"));

        Assert.True(exit == 0, text);
    }
}
