using Tplab.Scan.Findings;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Rules;

/// <summary>
/// Where a query comes from when the code picks among queries it built: a conditional, or a library call whose lambdas
/// build them (a functional library's <c>Option.Match</c>). A value built from an in-memory <c>AsQueryable()</c> stays in
/// memory; one built from a DbSet stays a database query.
/// </summary>
[ParallelSafe]
public sealed class QueryOriginTests
{
    // A functional library's optional value, as a package would ship it.
    private const string Functional = PackageFakes.Code + """

        namespace Functional
        {
            public readonly struct Option<T>
            {
                private readonly T value;
                private readonly bool some;
                public Option(T value) { this.value = value; some = true; }
                public R Match<R>(Func<T, R> Some, Func<R> None) => some ? Some(value) : None();
            }
        }
        """;

    private const string Logs = """
        using Functional;
        public sealed record LogEntry(DateTime Timestamp, string Message);
        public sealed record Page(int Count, List<LogEntry> Entries);
        public static class Root
        {
            public static Page Handle(string filter, Option<bool> descending, int skip)
            {
                IQueryable<LogEntry> entries = Read().Select(l => new LogEntry(DateTime.UtcNow, l)).AsQueryable();
                if (filter.Length > 0) { entries = entries.Where(e => e.Message.Contains(filter)); }
                var count = entries.Count();
        """;

    private const string Shop = """
        using Functional;
        using Microsoft.EntityFrameworkCore;
        public sealed class Order { public int Id; public DateTime Placed; }
        public sealed class ShopDb : DbContext { public DbSet<Order> Orders { get; } = null!; }
        public static class Root
        {
            public static List<Order> Handle(ShopDb db, Option<bool> descending, bool newest)
            {
                IQueryable<Order> orders = db.Orders;
        """;

    public static TheoryData<string, string, string?> Cases => new()
    {
        {
            "in-memory queryable ordered through a library's match",
            Logs + """
                IOrderedQueryable<LogEntry> ordered = descending.Match(
                    d => d ? entries.OrderByDescending(e => e.Message).ThenByDescending(e => e.Timestamp) : entries.OrderBy(e => e.Message).ThenByDescending(e => e.Timestamp),
                    () => entries.OrderByDescending(e => e.Timestamp));
                return new Page(count, ordered.Skip(skip).Take(20).ToList());
            }
            static IEnumerable<string> Read() { yield return "a"; }
        }
        """,
            null
        },
        {
            "in-memory queryable ordered by a conditional",
            Logs + """
                var ordered = skip > 0 ? entries.OrderBy(e => e.Timestamp) : entries.OrderByDescending(e => e.Timestamp);
                return new Page(count, ordered.Take(20).ToList());
            }
            static IEnumerable<string> Read() { yield return "a"; }
        }
        """,
            null
        },
        {
            "database query ordered through a library's match",
            Shop + """
                var ordered = descending.Match(d => d ? orders.OrderByDescending(o => o.Placed) : orders.OrderBy(o => o.Placed), () => orders.OrderBy(o => o.Id));
                return ordered.Take(20).ToList();
            }
        }
        """,
            "Enumerable.ToList"
        },
        {
            "database query ordered by a conditional",
            Shop + """
                var ordered = newest ? orders.OrderByDescending(o => o.Placed) : orders.OrderBy(o => o.Id);
                return ordered.Take(20).ToList();
            }
        }
        """,
            "Enumerable.ToList"
        },
    };

    // A paged list over any sequence, as e-commerce code bases write it: counts and copies what it is given.
    private const string Paging = """
        using Microsoft.EntityFrameworkCore;
        public sealed class Order { public int Id; public bool Open; }
        public sealed class ShopDb : DbContext { public DbSet<Order> Orders { get; } = null!; }
        public interface IRepository<T> { IQueryable<T> Table { get; } }
        public class PagedList<T> : List<T>
        {
            public PagedList(IEnumerable<T> source, int pageIndex, int pageSize) => Initialize(source, pageIndex, pageSize);
            public int TotalCount { get; private set; }
            private void Initialize(IEnumerable<T> source, int pageIndex, int pageSize)
            {
                TotalCount = source.Count();
                AddRange(source.Skip(pageIndex * pageSize).Take(pageSize));
            }
        }
        """;

    public static TheoryData<string, string, string, Severity> Hidden => new()
    {
        {
            "every caller passes a database query",
            Paging + "public static class Root { public static PagedList<Order> Handle(ShopDb db) => new PagedList<Order>(db.Orders.Where(o => o.Open), 0, 20); }",
            "passed by every caller (1: Root.Handle)", Severity.Error
        },
        {
            "one caller of two passes a database query",
            Paging + "public static class Root { public static PagedList<Order> Handle(ShopDb db) => new PagedList<Order>(db.Orders.Where(o => o.Open), 0, 20); public static PagedList<Order> Page(List<Order> orders) => new PagedList<Order>(orders, 0, 20); }",
            "passed by 1 of 2 callers (Root.Handle; the others pass a list", Severity.Warning
        },
        {
            "every caller passes a repository's query",
            Paging + "public sealed class Orders(IRepository<Order> repository) { public PagedList<Order> Open(int page) { var query = from o in repository.Table where o.Open select o; return new PagedList<Order>(query, page, 20); } } public static class Root { public static PagedList<Order> Handle(IRepository<Order> r) => new Orders(r).Open(0); }",
            "whose provider source does not show, passed by every caller (1: Orders.Open)", Severity.Warning
        },
    };

    [Theory]
    [MemberData(nameof(Hidden))]
    public void Findings_SequenceParameterGivenAQuery_RunsItAsItsCallersSay(string name, string code, string evidence, Severity severity)
    {
        var findings = Snippet.Findings(code, library: Functional);

        Assert.True(findings.Select(f => f.Call.Name).Order().SequenceEqual(["Enumerable.Count", "List.AddRange"]),
            $"{name}: expected the count and the copy, got {string.Join("; ", findings.Select(f => $"{f.Call.Name} ({f.Severity}: {f.Evidence})"))}");
        Assert.All(findings, f => Assert.Equal(severity, f.Severity));
        Assert.All(findings, f => Assert.Contains(evidence, f.Evidence ?? "", StringComparison.Ordinal));
    }

    // A helper that counts what it is given, called in each form C# allows: the calls are found by name and by how many
    // arguments the helper can take, so a same-named method of another arity is never one of its callers.
    private const string Totals = """
        using Microsoft.EntityFrameworkCore;
        public sealed class Order { public int Id; public bool Open; }
        public sealed class ShopDb : DbContext { public DbSet<Order> Orders { get; } = null!; }
        public static class Pages
        {
            public static int Total(this IEnumerable<Order> source, int size = 20) => (source.Count() + size - 1) / size;
            public static int Sum(IEnumerable<Order> source, params int[] sizes) => source.Count() + sizes.Length;
        }
        public static class Other { public static int Total(int a, int b, int c) => a + b + c; }
        """;

    public static TheoryData<string, string, string> Arities => new()
    {
        { "extension called on its receiver, the optional argument left out", Totals + "public static class Root { public static int Handle(ShopDb db) => db.Orders.Where(o => o.Open).Total() + Other.Total(1, 2, 3); }", "Enumerable.Count" },
        { "extension called in its static form, every argument given", Totals + "public static class Root { public static int Handle(ShopDb db) => Pages.Total(db.Orders.Where(o => o.Open), 10) + Other.Total(1, 2, 3); }", "Enumerable.Count" },
        { "more arguments than parameters, into a params array", Totals + "public static class Root { public static int Handle(ShopDb db) => Pages.Sum(db.Orders.Where(o => o.Open), 10, 20, 30) + Other.Total(1, 2, 3); }", "Enumerable.Count" },
    };

    [Theory]
    [MemberData(nameof(Arities))]
    public void Findings_HelperCalledWithAnyArgumentCountItTakes_TracesItsCallers(string name, string code, string blockingCall)
    {
        var findings = Snippet.Findings(code, library: Functional);

        Assert.True(findings.Any(f => f.Call.Name == blockingCall && f.Severity == Severity.Error),
            $"{name}: expected {blockingCall} as an error, got {string.Join("; ", findings.Select(f => $"{f.Call.Name} ({f.Severity}: {f.Evidence})"))}");
    }

    [Fact]
    public void Findings_ListFilledFromAQueryOrFromMemory_OnlyTheQueryBlocks()
    {
        var query = Snippet.Findings(Paging + "public static class Root { public static int Handle(ShopDb db) { var open = new List<Order>(db.Orders.Where(o => o.Open)); var ids = new HashSet<int>(new[] { 1, 2 }); return open.Count + ids.Count; } }", library: Functional);

        var finding = Assert.Single(query);
        Assert.Equal("new List", finding.Call.Name);
        Assert.Equal(Severity.Error, finding.Severity);
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void Findings_QueryPickedAmongBuiltOnes_KeepsItsOrigin(string name, string code, string? blockingCall)
    {
        var findings = Snippet.Findings(code, library: Functional);
        if (blockingCall is null)
        {
            Assert.True(findings.Count == 0, $"{name}: expected nothing, got {string.Join("; ", findings.Select(f => $"{f.Call.Name} ({f.Severity})"))}");
            return;
        }
        var finding = Assert.Single(findings);
        Assert.Equal(blockingCall, finding.Call.Name);
        Assert.Equal(Severity.Error, finding.Severity);
        Assert.Contains("database", finding.Evidence ?? "", StringComparison.Ordinal);
    }
}
