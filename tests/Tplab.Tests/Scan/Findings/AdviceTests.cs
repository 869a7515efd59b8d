using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Findings;

/// <summary>The fix names what to change: never "make the handler async" to one that already is, nor an async API that does not exist.</summary>
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

    [Fact]
    public void Advice_AsyncChainDownToOneSyncCall_NamesTheCallOnly()
    {
        // An async action, an async repository method, one synchronous member inside it: nothing between needs to change.
        var finding = Assert.Single(Snippet.Findings("""
            public sealed class Repo { public async Task<int> SaveAsync() { await Task.Yield(); return File.ReadAllText("a").Length; } }
            public sealed class Service { public async Task<int> RunAsync(Repo repo) => await repo.SaveAsync(); }
            public static class Root { public static async Task<int> Handle(Service service, Repo repo) => await service.RunAsync(repo); }
            """));
        Assert.Contains("In Repo.SaveAsync, use", finding.Advice, StringComparison.Ordinal);
        Assert.DoesNotContain("make the methods between", finding.Advice, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("File.Delete(path)", "File.Delete")]
    [InlineData("File.Move(path, path + \".old\")", "File.Move")]
    [InlineData("File.Copy(path, path + \".bak\")", "File.Copy")]
    [InlineData("Directory.Delete(path, true)", "Directory.Delete")]
    [InlineData("new FileInfo(path).Delete()", "FileInfo.Delete")]
    public void Advice_FileSystemChange_NamesNoAsyncSiblingAndNoListing(string statement, string call)
    {
        // .NET has no File.DeleteAsync, MoveAsync, CopyAsync nor Directory.DeleteAsync, and deleting is not listing.
        var finding = Assert.Single(Snippet.Findings($$"""
            public static class Root { public static async Task Handle(string path) { await Task.Yield(); {{statement}}; } }
            """));
        Assert.Equal(call, finding.Call.Name);
        Assert.Contains("has no async form", finding.Advice, StringComparison.Ordinal);
        Assert.DoesNotContain("Async(...)", finding.Advice, StringComparison.Ordinal);
        Assert.DoesNotContain("listing", finding.Advice, StringComparison.Ordinal);
    }

    [Fact]
    public void Advice_DirectoryListing_StillSaysCacheTheListing()
    {
        var finding = Assert.Single(Snippet.Findings("""
            public static class Root { public static async Task<int> Handle() { await Task.Yield(); return Directory.GetFiles("/data").Length; } }
            """));
        Assert.Contains("a cached listing", finding.Advice, StringComparison.Ordinal);
    }
}
