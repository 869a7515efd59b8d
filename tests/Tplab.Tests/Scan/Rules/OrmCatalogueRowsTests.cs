using Tplab.Blocking;
using Tplab.Scan.Findings;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Rules;

/// <summary>
/// NHibernate's calls that wait for the database (a session's Get and Flush, a transaction's Commit, a query's List),
/// written as repositories over it are; the calls that do not (Load's proxy, SaveOrUpdate queued to the flush, Evict,
/// the async siblings) are not reported. The package is compiled apart, as NuGet would hand it over.
/// </summary>
[ParallelSafe]
public sealed class OrmCatalogueRowsTests
{
    private const string NHibernate = """
        namespace NHibernate
        {
            public interface ITransaction : System.IDisposable { void Commit(); void Rollback(); System.Threading.Tasks.Task CommitAsync(System.Threading.CancellationToken cancellationToken = default); }
            public interface IQueryOver<TRoot> { System.Collections.Generic.IList<TRoot> List(); TRoot SingleOrDefault(); int RowCount(); }
            public interface IQueryOver<TRoot, TSubType> : IQueryOver<TRoot> { IQueryOver<TRoot, TSubType> Where(System.Linq.Expressions.Expression<System.Func<TSubType, bool>> expression); }
            public interface IQuery { System.Collections.Generic.IList<T> List<T>(); object UniqueResult(); }
            public interface ISession : System.IDisposable
            {
                T Get<T>(object id);
                T Load<T>(object id);
                void Flush();
                void SaveOrUpdate(object obj);
                void Evict(object obj);
                ITransaction BeginTransaction();
                IQueryOver<T, T> QueryOver<T>() where T : class;
                IQuery CreateQuery(string queryString);
                System.Threading.Tasks.Task<T> GetAsync<T>(object id, System.Threading.CancellationToken cancellationToken = default);
            }
        }
        """;

    private const string Repository = """
        using NHibernate;
        public sealed class Episode { public int Id { get; set; } public string Title { get; set; } = ""; }
        public sealed class EpisodeRepository(ISession session)
        {
            public Episode Find(int id) => session.Get<Episode>(id);
            public Episode Proxy(int id) => session.Load<Episode>(id);
            public void Save(Episode episode)
            {
                using var transaction = session.BeginTransaction();
                session.SaveOrUpdate(episode);
                transaction.Commit();
            }
            public IList<Episode> Titled(string title) => session.QueryOver<Episode>().Where(e => e.Title == title).List();
            public int Count() => session.CreateQuery("select count(*) from Episode").List<int>()[0];
            public void Forget(Episode episode) => session.Evict(episode);
            public Task<Episode> FindAsync(int id) => session.GetAsync<Episode>(id);
        }
        """;

    public static TheoryData<string, string, string?> Cases => new()
    {
        { "get", "public static class Root { public static string Handle(EpisodeRepository r) => r.Find(1).Title; }", "ISession.Get" },
        { "save commits", "public static class Root { public static void Handle(EpisodeRepository r) => r.Save(new Episode()); }", "ITransaction.Commit" },
        { "query over list", "public static class Root { public static int Handle(EpisodeRepository r) => r.Titled(\"a\").Count; }", "IQueryOver.List" },
        { "hql list", "public static class Root { public static int Handle(EpisodeRepository r) => r.Count(); }", "IQuery.List" },
        { "load's proxy", "public static class Root { public static int Handle(EpisodeRepository r) => r.Proxy(1).Id; }", null },
        { "evict", "public static class Root { public static void Handle(EpisodeRepository r) => r.Forget(new Episode()); }", null },
        { "async sibling", "public static class Root { public static async Task<string> Handle(EpisodeRepository r) => (await r.FindAsync(1)).Title; }", null },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Findings_NHibernateCall_ReportsTheDatabaseWaitOrNothing(string name, string code, string? blockingCall)
    {
        var findings = Snippet.Findings(Repository + code, library: NHibernate);
        if (blockingCall is null)
        {
            Assert.True(findings.Count == 0, $"{name}: expected nothing, got {string.Join("; ", findings.Select(f => f.Call.Name))}");
            return;
        }
        var finding = Assert.Single(findings);
        Assert.True(finding.Call.Name == blockingCall, $"{name}: expected {blockingCall}, got {finding.Call.Name}");
        Assert.Equal(BlockingKind.SyncDatabaseIO, finding.Call.Kind);
        Assert.Equal(Severity.Error, finding.Severity);
    }
}
