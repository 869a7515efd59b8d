using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Graph;

/// <summary>
/// A generic repository as modular apps write it: the members on a base generic interface
/// (<c>IRepository&lt;T&gt; : IRepositoryWithTypedId&lt;T, long&gt;</c>), implemented by a base class the registered
/// one derives from, and both registered as open generics. A call on the derived interface runs the base class's member.
/// </summary>
[ParallelSafe]
public sealed class GenericRepositoryDispatchTests
{
    private const string Repositories = """
        using Microsoft.Extensions.DependencyInjection;
        public interface IEntityWithTypedId<TId> { TId Id { get; } }
        public abstract class EntityBase : IEntityWithTypedId<long> { public long Id { get; set; } }
        public sealed class ContactArea : EntityBase { public string Name { get; set; } = ""; }
        public sealed class User : IEntityWithTypedId<long> { public long Id { get; set; } }
        public sealed class ShopContext { public int SaveChanges() { Thread.Sleep(5); return 1; } }
        public interface IRepositoryWithTypedId<T, TId> where T : IEntityWithTypedId<TId>
        {
            IQueryable<T> Query();
            void Add(T entity);
            void SaveChanges();
        }
        public interface IRepository<T> : IRepositoryWithTypedId<T, long> where T : IEntityWithTypedId<long> { }
        public class RepositoryWithTypedId<T, TId>(ShopContext context) : IRepositoryWithTypedId<T, TId> where T : class, IEntityWithTypedId<TId>
        {
            private readonly List<T> _added = [];
            public IQueryable<T> Query() => _added.AsQueryable();
            public void Add(T entity) => _added.Add(entity);
            public void SaveChanges() => context.SaveChanges();
        }
        public class Repository<T>(ShopContext context) : RepositoryWithTypedId<T, long>(context), IRepository<T> where T : class, IEntityWithTypedId<long> { }
        public static class Startup
        {
            public static void Configure(IServiceCollection services)
            {
                services.AddScoped<ShopContext>();
                services.AddTransient(typeof(IRepository<>), typeof(Repository<>));
                services.AddTransient(typeof(IRepositoryWithTypedId<,>), typeof(RepositoryWithTypedId<,>));
            }
        }
        """;

    [Fact]
    public void Resolve_BaseInterfaceMemberOnTheDerivedOpenGenericRegistration_ReachesTheBaseClassMember()
    {
        var finding = Assert.Single(Snippet.Findings(Repositories + """
            public static class Root
            {
                public static void Handle(IRepository<ContactArea> areas, string name)
                {
                    areas.Add(new ContactArea { Name = name });
                    areas.SaveChanges();
                }
            }
            """));
        Assert.Equal("Thread.Sleep", finding.Call.Name);
        Assert.Contains(finding.Chain, h => h.Method.Contains("RepositoryWithTypedId", StringComparison.Ordinal));
    }

    [Fact]
    public void Resolve_BaseInterfaceMemberOnItsOwnOpenGenericRegistration_ReachesTheSameMember()
    {
        var finding = Assert.Single(Snippet.Findings(Repositories + """
            public static class Root { public static void Handle(IRepositoryWithTypedId<User, long> users) => users.SaveChanges(); }
            """));
        Assert.Equal("Thread.Sleep", finding.Call.Name);
    }
}
