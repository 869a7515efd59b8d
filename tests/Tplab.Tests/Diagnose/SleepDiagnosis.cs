using System.Text.Json;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose;

/// <summary>What every offline source must agree on for the target's <c>/sleep</c> flood: blocked, Thread.Sleep in WaitController.Sleep.</summary>
internal static class SleepDiagnosis
{
    /// <summary>Runs <c>tplab diagnose ARGS --format json</c>, checks the answer names the sleep and comes from <paramref name="kind"/>; the document for more checks.</summary>
    public static async Task<JsonDocument> AssertBlockedOnSleepAsync(TimeSpan limit, string kind, params string[] args)
    {
        var (code, stdout, stderr) = await TplabCli.RunAsync(limit, ["diagnose", .. args, "--format", "json"]);

        Assert.True(code == 0, stderr);
        var doc = JsonDocument.Parse(stdout);
        var root = doc.RootElement;
        Assert.Equal("blocked", root.GetProperty("verdict").GetString());
        var top = root.GetProperty("culprits")[0];
        Assert.Equal("Thread.Sleep", top.GetProperty("blockingCall").GetString());
        if (kind == "dump" && top.GetProperty("userFrame").ValueKind == JsonValueKind.Null)
        {
            // A dump holds no ASP.NET Core events: an action the JIT inlined into MVC's invoker (the target carries no
            // NoInlining mark) is placed and the frame its code went into named (MVC's executor: a dump may not name the
            // compiled lambda), but the action itself cannot be.
            Assert.True(top.GetProperty("place").GetString() == "mvc-action"
                && !string.IsNullOrEmpty(top.GetProperty("inlinedInto").GetString()), top.ToString());
        }
        else
        {
            Assert.EndsWith("WaitController.Sleep", top.GetProperty("userFrame").GetString(), StringComparison.Ordinal);
        }
        Assert.Equal(kind, root.GetProperty("source").GetProperty("kind").GetString());
        return doc;
    }
}
