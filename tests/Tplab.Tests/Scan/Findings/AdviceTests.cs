using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Findings;

/// <summary>The fix names what to change: never "make the handler async" to one that already is.</summary>
[ParallelSafe]
public sealed class AdviceTests
{
    [Fact]
    public void Advice_AsyncHandlerThroughASyncHelper_NamesTheHelperNotTheHandler()
    {
        var finding = Assert.Single(Snippet.Findings("""
            public sealed class Store { public string Load() => File.ReadAllText("a"); }
            public static class Root { public static async Task<string> Handle(Store store) { await Task.Yield(); return store.Load(); } }
            """));
        Assert.StartsWith("File.ReadAllText", finding.Call.Name, StringComparison.Ordinal);
        Assert.Contains("In Store.Load, use", finding.Advice, StringComparison.Ordinal);
        Assert.EndsWith("Root.Handle is already async: make the methods between it and Store.Load async with it.", finding.Advice, StringComparison.Ordinal);
        Assert.DoesNotContain("handler with it", finding.Advice, StringComparison.Ordinal);
    }

    [Fact]
    public void Advice_SyncHandler_StillSaysToMakeItAsync()
    {
        var finding = Assert.Single(Snippet.Findings("""
            public sealed class Store { public string Load() => File.ReadAllText("a"); }
            public static class Root { public static string Handle(Store store) => store.Load(); }
            """));
        Assert.Contains("Make Store.Load async, and the endpoint's handler with it", finding.Advice, StringComparison.Ordinal);
    }
}
