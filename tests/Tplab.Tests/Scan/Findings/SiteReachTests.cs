using System.Globalization;
using Tplab.Scan.Findings;
using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Findings;

/// <summary>
/// What a site's entry points together say of it: the layer its advice names (the method most of them go through) and
/// its severity by reach (a warning from each, an error from many), on snippets whose controllers derive the fake
/// MVC's ControllerBase.
/// </summary>
[ParallelSafe]
public sealed class SiteReachTests
{
    private const string Repository = """
        public sealed class Db { public string Query(string sql) => File.ReadAllText(sql); }
        public sealed class OrderRepository(Db db) { public string Find(int id) => db.Query("a" + id); }

        """;

    [Fact]
    public void Layer_ThreeOfFourActionsThroughARepository_NamesTheRepositoryMethod()
    {
        var site = Assert.Single(Snippet.Sites(Repository + """
            public sealed class OrdersController(OrderRepository repo, Db db) : Microsoft.AspNetCore.Mvc.ControllerBase
            {
                public string A(int id) => repo.Find(id);
                public string B(int id) => repo.Find(id + 1);
                public string C(int id) => repo.Find(id + 2);
                public string D() => db.Query("d");
            }
            """, PackageFakes.Code));

        Assert.Equal(4, site.Roots.Count);
        Assert.Equal(("OrderRepository.Find", 3, 4), (site.Layer?.Display, site.Layer?.Through, site.Layer?.Of));
        Assert.EndsWith("Layer: make OrderRepository.Find async, with the methods from it down to Db.Query: 3 of the 4 entry points that reach it go through it.",
            site.Advice, StringComparison.Ordinal);
    }

    [Fact]
    public void Layer_AsyncActionsAboveTheRepository_NamesTheRepositoryNeverTheActions()
    {
        var site = Assert.Single(Snippet.Sites(Repository + """
            public sealed class OrdersController(OrderRepository repo) : Microsoft.AspNetCore.Mvc.ControllerBase
            {
                public async Task<string> A(int id) { await Task.Yield(); return repo.Find(id); }
                public async Task<string> B(int id) { await Task.Yield(); return repo.Find(id + 1); }
            }
            """, PackageFakes.Code));

        Assert.Equal(("OrderRepository.Find", 2, 2), (site.Layer?.Display, site.Layer?.Through, site.Layer?.Of));
        Assert.Contains("Layer: all 2 entry points that reach it go through OrderRepository.Find", site.Advice, StringComparison.Ordinal);
        Assert.DoesNotContain("Make the action", site.Advice, StringComparison.Ordinal);
    }

    [Theory]
    // Each action calls the blocking method itself: the layer would be the method the advice names already.
    [InlineData("public string A() => db.Query(\"a\"); public string B() => db.Query(\"b\");")]
    // One action of two through the repository: not more than half.
    [InlineData("public string A() => db.Query(\"a\"); public string B() => repo.Find(2);")]
    // One entry point: nothing shared to name.
    [InlineData("public string A() => repo.Find(1);")]
    public void Layer_NothingSharedAboveTheBlockingMethod_IsNotSaid(string actions)
    {
        var site = Assert.Single(Snippet.Sites(Repository + $$"""
            public sealed class OrdersController(OrderRepository repo, Db db) : Microsoft.AspNetCore.Mvc.ControllerBase
            {
                {{actions}}
            }
            """, PackageFakes.Code));

        Assert.Null(site.Layer);
        Assert.DoesNotContain("Layer:", site.Advice, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(9, Severity.Warning)]
    [InlineData(10, Severity.Error)]
    public void Severity_AGuessedImplementationReachedByManyActions_IsAnErrorFromTenOn(int actions, Severity expected)
    {
        var methods = string.Join("\n", Enumerable.Range(0, actions).Select(i => string.Create(CultureInfo.InvariantCulture, $"    public string A{i}() => store.Load();")));
        var site = Assert.Single(Snippet.Sites($$"""
            public interface IStore { string Load(); }
            public sealed class FileStore : IStore { public string Load() => File.ReadAllText("a"); }
            public sealed class MemoryStore : IStore { public string Load() => ""; }
            public sealed class ItemsController(IStore store) : Microsoft.AspNetCore.Mvc.ControllerBase
            {
            {{methods}}
            }
            """, PackageFakes.Code));

        Assert.All(site.Roots, r => Assert.Equal(Severity.Warning, r.Severity));
        Assert.Equal((expected, expected == Severity.Error), (site.Severity, site.ByReach));
        // The reasons stay: why each way alone would be a warning.
        Assert.Contains(site.Reasons, r => r.StartsWith("through one of 2 implementations of IStore.Load", StringComparison.Ordinal));
    }

    [Fact]
    public void Severity_AnUncertainStreamReachedByManyActions_StaysAWarning()
    {
        var methods = string.Join("\n", Enumerable.Range(0, 12).Select(i => string.Create(CultureInfo.InvariantCulture, $"    public int A{i}() => reader.Read(source);")));
        var site = Assert.Single(Snippet.Sites($$"""
            public sealed class Reader { public int Read(Stream stream) => stream.Read(new byte[4], 0, 4); }
            public sealed class ItemsController(Reader reader, Stream source) : Microsoft.AspNetCore.Mvc.ControllerBase
            {
            {{methods}}
            }
            """, PackageFakes.Code));

        Assert.Equal((Severity.Warning, false), (site.Severity, site.ByReach));
    }
}
