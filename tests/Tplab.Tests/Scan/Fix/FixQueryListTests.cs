using Tplab.Blocking;
using Tplab.Scan.Fix.Checks;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// <c>QueryListRewrite</c> on a snippet: EF Core's <c>RemoveRange(query)</c> → <c>RemoveRange(await query.ToListAsync())</c>
/// where the query is built on a <c>DbSet</c> (here through a method of the app that returns it, as teams write it), and
/// refused on a query EF does not run (an in-memory <c>AsQueryable()</c>: <c>ToListAsync</c> would throw there). The
/// snippet declares the two EF Core types it uses with EF's names, so the rewrite binds as it does against EF Core;
/// the behaviour on a real database is the differential harness's (bench/fix-differential.sh on ScanCases).
/// </summary>
[ParallelSafe]
public sealed class FixQueryListTests
{
    private const string Ef = """
        using System;
        using System.Collections;
        using System.Collections.Generic;
        using System.Linq;
        using System.Linq.Expressions;
        using System.Threading;
        using System.Threading.Tasks;
        namespace Microsoft.EntityFrameworkCore
        {
            public abstract class DbSet<TEntity> : IQueryable<TEntity> where TEntity : class
            {
                public abstract Type ElementType { get; }
                public abstract Expression Expression { get; }
                public abstract IQueryProvider Provider { get; }
                public abstract IEnumerator<TEntity> GetEnumerator();
                IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
                public virtual void RemoveRange(IEnumerable<TEntity> entities) { }
            }
            public static class EntityFrameworkQueryableExtensions
            {
                public static Task<List<T>> ToListAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) => Task.FromResult(source.ToList());
                public static IQueryable<T> AsNoTracking<T>(this IQueryable<T> source) where T : class => source;
            }
            public static class RelationalQueryableExtensions
            {
                public static IQueryable<T> FromSqlRaw<T>(this DbSet<T> source, string sql, params object[] parameters) where T : class => source;
            }
        }
        namespace App
        {
            using Microsoft.EntityFrameworkCore;
            public sealed class Ticket { public int EventId { get; set; } }
            public sealed class Tickets(DbSet<Ticket> tickets, List<Ticket> cached)
            {
                public int Release(int eventId, bool fromCache)
                {
                    BODY;
                    return 1;
                }
                private IQueryable<Ticket> OfEvent(int eventId) => tickets.Where(t => t.EventId == eventId);
                private IQueryable<Ticket> Open(int eventId) { return OfEvent(eventId).Where(t => t.EventId > 0); }
                private IQueryable<Ticket> Stale(int eventId) => Open(eventId).AsNoTracking();
                private IQueryable<Ticket> Either(int eventId, bool fromCache)
                {
                    if (fromCache)
                    {
                        return cached.AsQueryable();
                    }
                    return OfEvent(eventId);
                }
            }
            public static class QueryHelpers
            {
                public static IQueryable<T> WhereIf<T>(this IQueryable<T> source, bool condition, Expression<Func<T, bool>> predicate) =>
                    condition ? source.Where(predicate) : source;
            }
        }
        """;

    private static readonly BlockingCall RemoveRange = new(BlockingKind.SyncDatabaseIO, "DbSet.RemoveRange", new StackFrame("Microsoft.EntityFrameworkCore", "Microsoft.EntityFrameworkCore.DbSet`1", "RemoveRange"));

    [Fact]
    public async Task RemoveRangeOverADbSetQuery_TheQueryListedAsync()
    {
        var (after, refusal) = await SiteRewriteTests.RewriteAsync(Ef.Replace("BODY", "tickets.RemoveRange(OfEvent(eventId))", StringComparison.Ordinal), "RemoveRange(OfEvent", RemoveRange);

        Assert.Null(refusal);
        var text = SiteRewriteTests.Squash(after);
        Assert.Contains("tickets.RemoveRange(await OfEvent(eventId).ToListAsync());", text);
        Assert.Contains("public async Task<int> Release(int eventId, bool fromCache)", text);
    }

    [Fact]
    public async Task RemoveRangeOverAnInMemoryQuery_Refused_NamedTPFIX010()
    {
        var (after, refusal) = await SiteRewriteTests.RewriteAsync(Ef.Replace("BODY", "tickets.RemoveRange(cached.AsQueryable())", StringComparison.Ordinal), "RemoveRange(cached", RemoveRange);

        Assert.Null(after);
        Assert.StartsWith(FixReasons.NoAsyncForm.Id, refusal);
        Assert.Contains("is not built on an EF Core DbSet", refusal);
    }

    /// <summary>
    /// The edges of the one rule (scan's <c>Queries.Trace</c>, asked for every path): what scan calls a database query
    /// on some path and fix must see on every path before <c>ToListAsync</c> can run it. Each row: the statement, and
    /// whether fix rewrites it (true) or refuses it (TPFIX010).
    /// </summary>
    [Theory]
    // EF's FromSqlRaw on a DbSet: a database query (scan's rule; bench/fix-querylist-proof.sh runs it before and after).
    [InlineData("tickets.RemoveRange(tickets.FromSqlRaw(\"SELECT * FROM Tickets WHERE EventId = {0}\", eventId))", true)]
    // Three methods of the app, each returning one expression, through Queryable's and EF's operators.
    [InlineData("tickets.RemoveRange(Stale(eventId))", true)]
    // A local holding one query built on the DbSet.
    [InlineData("var stale = tickets.Where(t => t.EventId == eventId); tickets.RemoveRange(stale)", true)]
    // A local composed over itself keeps its origin.
    [InlineData("var stale = OfEvent(eventId); stale = stale.Where(t => t.EventId > 0); tickets.RemoveRange(stale)", true)]
    // A local that holds the database query on one path and an in-memory one on the other: scan reports it, fix refuses.
    [InlineData("var stale = OfEvent(eventId); if (fromCache) { stale = cached.AsQueryable(); } tickets.RemoveRange(stale)", false)]
    // A method with two returns (fix follows methods that return one expression): refused.
    [InlineData("tickets.RemoveRange(Either(eventId, fromCache))", false)]
    // A helper whose result tplab cannot trace on every path: scan presumes it composes its source, fix does not.
    [InlineData("tickets.RemoveRange(OfEvent(eventId).WhereIf(fromCache, t => t.EventId > 0))", false)]
    // EF's operator on an in-memory source hands it back untouched: not a database query for fix.
    [InlineData("tickets.RemoveRange(cached.AsQueryable().AsNoTracking())", false)]
    public async Task RemoveRange_TheOneRuleOnEveryPath(string statement, bool rewritten)
    {
        var (after, refusal) = await SiteRewriteTests.RewriteAsync(Ef.Replace("BODY", statement, StringComparison.Ordinal), "tickets.RemoveRange(", RemoveRange);

        if (rewritten)
        {
            Assert.Null(refusal);
            Assert.Contains(".ToListAsync());", SiteRewriteTests.Squash(after));
        }
        else
        {
            Assert.Null(after);
            Assert.StartsWith(FixReasons.NoAsyncForm.Id, refusal);
            Assert.Contains("on every path", refusal);
        }
    }
}
