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
            }
        }
        namespace App
        {
            using Microsoft.EntityFrameworkCore;
            public sealed class Ticket { public int EventId { get; set; } }
            public sealed class Tickets(DbSet<Ticket> tickets, List<Ticket> cached)
            {
                public int Release(int eventId)
                {
                    tickets.RemoveRange(BODY);
                    return 1;
                }
                private IQueryable<Ticket> OfEvent(int eventId) => tickets.Where(t => t.EventId == eventId);
            }
        }
        """;

    private static readonly BlockingCall RemoveRange = new(BlockingKind.SyncDatabaseIO, "DbSet.RemoveRange", new StackFrame("Microsoft.EntityFrameworkCore", "Microsoft.EntityFrameworkCore.DbSet`1", "RemoveRange"));

    [Fact]
    public async Task RemoveRangeOverADbSetQuery_TheQueryListedAsync()
    {
        var (after, refusal) = await SiteRewriteTests.RewriteAsync(Ef.Replace("BODY", "OfEvent(eventId)", StringComparison.Ordinal), "RemoveRange(OfEvent", RemoveRange);

        Assert.Null(refusal);
        var text = SiteRewriteTests.Squash(after);
        Assert.Contains("tickets.RemoveRange(await OfEvent(eventId).ToListAsync());", text);
        Assert.Contains("public async Task<int> Release(int eventId)", text);
    }

    [Fact]
    public async Task RemoveRangeOverAnInMemoryQuery_Refused_NamedTPFIX010()
    {
        var (after, refusal) = await SiteRewriteTests.RewriteAsync(Ef.Replace("BODY", "cached.AsQueryable()", StringComparison.Ordinal), "RemoveRange(cached", RemoveRange);

        Assert.Null(after);
        Assert.StartsWith(FixReasons.NoAsyncForm.Id, refusal);
        Assert.Contains("is not built on an EF Core DbSet", refusal);
    }
}
