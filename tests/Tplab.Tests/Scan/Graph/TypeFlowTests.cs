using Tplab.Scan.Findings;
using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Graph;

/// <summary>
/// Dispatch by what flows into a call: the type arguments a generic repository hands an event aggregator (known, or
/// known only by their generic definition), the instantiation of a generic base, the concrete type of <c>this</c> in an
/// inherited action, and an interface member implemented by an abstract member that goes on to the overrides.
/// </summary>
[ParallelSafe]
public sealed class TypeFlowTests
{
    // An event aggregator as application teams write it: a generic repository publishes EntityChanged<TEntity> on every
    // save; handlers of other events (startup, backups) must never be reached from a save.
    private const string Events = """
        using Microsoft.Extensions.DependencyInjection;
        public interface IHandle<in TEvent> { void Handle(TEvent e); }
        public interface IEventAggregator { void Publish<TEvent>(TEvent e); }
        public sealed class EventAggregator(IServiceProvider sp) : IEventAggregator
        {
            public void Publish<TEvent>(TEvent e) { foreach (var h in sp.GetServices<IHandle<TEvent>>()) { h.Handle(e); } }
        }
        public sealed class EntityChanged<TEntity>(TEntity entity) { public TEntity Entity { get; } = entity; }
        public sealed class ApplicationStarted { }
        public sealed class Order { }
        public sealed class Customer { }
        public interface IRepository<TEntity> { void Save(TEntity entity); }
        public interface IRepository { void Touch(); }
        public class Repository<TEntity>(IEventAggregator events, TEntity sample) : IRepository<TEntity>, IRepository
        {
            public void Save(TEntity entity) => events.Publish(new EntityChanged<TEntity>(entity));
            public void Touch() => Save(sample);
        }
        public sealed class OrderIndexer : IHandle<EntityChanged<Order>> { public void Handle(EntityChanged<Order> e) => File.WriteAllText("orders", ""); }
        public sealed class CustomerMailer : IHandle<EntityChanged<Customer>> { public void Handle(EntityChanged<Customer> e) => new HttpClient().Send(new HttpRequestMessage()); }
        public sealed class StartupBackup : IHandle<ApplicationStarted> { public void Handle(ApplicationStarted e) => Thread.Sleep(1000); }
        public static class Startup
        {
            public static void Configure(IServiceCollection services)
            {
                services.AddSingleton<IEventAggregator, EventAggregator>();
                services.AddScoped(typeof(IRepository<>), typeof(Repository<>));
                services.AddScoped<IHandle<EntityChanged<Order>>, OrderIndexer>();
                services.AddScoped<IHandle<EntityChanged<Customer>>, CustomerMailer>();
                services.AddScoped<IHandle<ApplicationStarted>, StartupBackup>();
            }
        }
        """;

    [Fact]
    public void Publish_EventBuiltFromTheRepositorysTypeParameter_ReachesOnlyTheHandlersOfThatEntity()
    {
        var findings = Snippet.Findings(Events + """
            public static class Root { public static void Handle(IRepository<Order> orders) => orders.Save(new Order()); }
            """);
        var finding = Assert.Single(findings);
        Assert.Equal("File.WriteAllText", finding.Call.Name);
        Assert.Contains(finding.Chain, h => h.Via == "implementation of IHandle.Handle (the type argument TEvent = EntityChanged<Order>, registered in DI)");
    }

    [Fact]
    public void Publish_EntityUnknown_TheEventsDefinitionStillRulesOutOtherEvents()
    {
        // Through the non-generic IRepository, TEntity is not known: every EntityChanged<X> handler may run, never StartupBackup.
        var findings = Snippet.Findings(Events + """
            public static class Root { public static void Handle(IRepository repository) => repository.Touch(); }
            """);
        Assert.Equal(["File.WriteAllText", "HttpClient.Send"], findings.Select(f => f.Call.Name).Order(StringComparer.Ordinal));
        Assert.All(findings, f => Assert.Contains(f.Chain, h => h.Via == "one of 2 implementations of IHandle.Handle (the type argument TEvent = EntityChanged<TEntity>, registered in DI)"));
    }

    [Fact]
    public void Publish_AnEventOfItsOwn_StillReachesItsHandler()
    {
        var findings = Snippet.Findings(Events + """
            public static class Root { public static void Handle(IEventAggregator events) => events.Publish(new ApplicationStarted()); }
            """);
        Assert.Equal("Thread.Sleep", Assert.Single(findings).Call.Name);
    }

    // A plugin layer: the interface the endpoints call is implemented by an abstract member of the plugins' base class.
    private const string Plugins = """
        using Microsoft.Extensions.DependencyInjection;
        public interface IPlugin { string Sync(string item); }
        public abstract class PluginBase : IPlugin
        {
            public abstract string Sync(string item);
        }
        public sealed class HttpPlugin : PluginBase { public override string Sync(string item) => new HttpClient().Send(new HttpRequestMessage()).StatusCode.ToString(); }
        public sealed class RetryPlugin : PluginBase { public override string Sync(string item) { Thread.Sleep(100); return item; } }
        public class FilePlugin : PluginBase { public override string Sync(string item) { File.WriteAllText("x", item); return item; } }
        public sealed class ZipPlugin : FilePlugin { }
        public static class Root { public static void Handle(IEnumerable<IPlugin> plugins) { foreach (var p in plugins) { p.Sync("a"); } } }
        """;

    [Fact]
    public void Call_InterfaceImplementedByAnAbstractMember_GoesOnToEveryOverride()
    {
        var findings = Snippet.Findings(Plugins);
        Assert.Equal(["File.WriteAllText", "HttpClient.Send", "Thread.Sleep"], findings.Select(f => f.Call.Name).Order(StringComparer.Ordinal));
        Assert.All(findings, f => Assert.Contains(f.Chain, h => h.Via == "one of 3 implementations of IPlugin.Sync (a guess: every implementation in the solution)"));
    }

    [Fact]
    public void Call_InterfaceImplementedByAnAbstractMember_NarrowedByDi()
    {
        // ZipPlugin inherits FilePlugin's override: registering it runs FilePlugin.Sync; RetryPlugin is not registered.
        var findings = Snippet.Findings(Plugins + """
            public static class Startup
            {
                public static void Configure(IServiceCollection services) { services.AddScoped<IPlugin, HttpPlugin>(); services.AddScoped<IPlugin, ZipPlugin>(); }
            }
            """);
        Assert.Equal(["File.WriteAllText", "HttpClient.Send"], findings.Select(f => f.Call.Name).Order(StringComparer.Ordinal));
        Assert.All(findings, f => Assert.Contains(f.Chain, h => h.Via == "one of 2 implementations of IPlugin.Sync (registered in DI)"));
    }

    // A controller base class: the inherited action calls a virtual this.Load(), overridden in five controllers.
    private const string Controllers = """
        public abstract class CrudController
        {
            public string Get(int id) => this.Load(id);
            public string Refresh(int id) => Load(id) + base.ToString();
            protected virtual string Load(int id) => "";
        }
        public sealed class OrdersController : CrudController { protected override string Load(int id) => File.ReadAllText("orders"); }
        public sealed class UsersController : CrudController { protected override string Load(int id) { Thread.Sleep(10); return ""; } }
        public sealed class PricesController : CrudController { protected override string Load(int id) => new HttpClient().Send(new HttpRequestMessage()).ToString(); }
        public sealed class StockController : CrudController { protected override string Load(int id) { File.WriteAllText("s", ""); return ""; } }
        public sealed class TagsController : CrudController { protected override string Load(int id) { Task.Delay(1).Wait(); return ""; } }
        """;

    [Theory]
    [InlineData("c.Get(1)")] // explicit this.Load
    [InlineData("c.Refresh(1)")] // implicit this
    public void ThisCall_InheritedActionOnAConcreteController_FollowsOnlyItsOverride(string call)
    {
        var findings = Snippet.Findings(Controllers + $$"""
            public static class Root { public static string Handle(OrdersController c) => {{call}}; }
            """);
        var finding = Assert.Single(findings);
        Assert.Equal("File.ReadAllText", finding.Call.Name);
        Assert.Contains(finding.Chain, h => h.Via == "implementation of CrudController.Load (this is OrdersController)");
    }

    [Fact]
    public void ThisCall_ReceiverOfTheBaseType_StaysOneOfEvery()
    {
        var findings = Snippet.Findings(Controllers + """
            public static class Root { public static string Handle(CrudController c) => c.Get(1); }
            """);
        Assert.Equal(["File.ReadAllText", "File.WriteAllText", "HttpClient.Send", "Task.Wait", "Thread.Sleep"], findings.Select(f => f.Call.Name).Order(StringComparer.Ordinal));
    }

    // A generic repository whose virtual Query is overridden for two entity types.
    private const string Repositories = """
        public sealed class Order { }
        public sealed class Customer { }
        public class Repository<T> { public virtual List<T> Query() => new(); }
        public sealed class OrderRepository : Repository<Order> { public override List<Order> Query() { Thread.Sleep(10); return new(); } }
        public sealed class CustomerRepository : Repository<Customer> { public override List<Customer> Query() { File.ReadAllText("c"); return new(); } }
        public sealed class ListService<T>(Repository<T> repository) { public int Count() => repository.Query().Count; }
        """;

    [Fact]
    public void VirtualOfAGenericBase_ReceiverWithAConcreteArgument_FollowsOnlyItsOverride()
    {
        var findings = Snippet.Findings(Repositories + """
            public static class Root { public static int Handle(Repository<Order> orders) => orders.Query().Count; }
            """);
        Assert.Equal("Thread.Sleep", Assert.Single(findings).Call.Name);
    }

    [Fact]
    public void VirtualOfAGenericBase_ArgumentFromTheCallersInstantiation_FollowsOnlyItsOverride()
    {
        var findings = Snippet.Findings(Repositories + """
            public static class Root { public static int Handle(ListService<Customer> customers) => customers.Count(); }
            """);
        var finding = Assert.Single(findings);
        Assert.Equal("File.ReadAllText", finding.Call.Name);
        Assert.Contains(finding.Chain, h => h.Via == "one of 2 implementations of Repository.Query (the type argument T = Customer)");
    }

    // The same shape as MVC sees it: the inherited public action is an entry point of each concrete controller, and each
    // walk resolves this.Load() on its own controller, so no controller's endpoint reaches another's blocking call.
    [Fact]
    public void ThisCall_InheritedMvcAction_EachControllerEntryReachesOnlyItsOwnOverride()
    {
        var byRoot = Snippet.FindingsByRoot("""
            using Microsoft.AspNetCore.Mvc;
            public abstract class CrudController : ControllerBase
            {
                public string Get(int id) => Load(id);
                protected abstract string Load(int id);
            }
            public sealed class OrdersController : CrudController { protected override string Load(int id) => File.ReadAllText("orders"); }
            public sealed class UsersController : CrudController { protected override string Load(int id) { Thread.Sleep(10); return ""; } }
            public sealed class TagsController : CrudController { protected override string Load(int id) { Task.Delay(1).Wait(); return ""; } }
            """, PackageFakes.Code);

        var gets = byRoot.Where(r => r.Root.Node.Symbol.Name == "Get").ToList();
        Assert.Equal(["OrdersController", "TagsController", "UsersController"], gets.Select(r => r.Root.Controller?.Name ?? "?").Order());
        foreach (var (root, findings) in gets)
        {
            var site = Assert.Single(findings);
            Assert.Equal(root.Controller!.Name, site.Chain[^1].Method.Split('.')[^2]);
        }
    }
}
