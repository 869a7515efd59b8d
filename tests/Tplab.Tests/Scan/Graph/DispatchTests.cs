using Tplab.Scan.Findings;
using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Graph;

/// <summary>
/// An interface call follows the implementations that can be there: those DI registers for the receiver's type
/// (generic, typeof, open generics, factories, TryAdd, ServiceDescriptor) and those the source constructs itself;
/// every implementation, marked as a guess, when nothing narrows it or the service is found by reflection.
/// </summary>
[ParallelSafe]
public sealed class DispatchTests
{
    // Two stores: one blocks on a file, the other sleeps. Which one runs is what the registrations say.
    private const string Stores = """
        public interface IStore { string Load(); }
        public sealed class FileStore : IStore { public string Load() => File.ReadAllText("a"); }
        public sealed class SleepyStore : IStore { public string Load() { Thread.Sleep(10); return ""; } }
        public static class Root { public static string Handle(IStore store) => store.Load(); }
        """;

    private static IReadOnlyList<Finding> Scan(string registrations) => Snippet.Findings($$"""
        using Microsoft.Extensions.DependencyInjection;
        using Microsoft.Extensions.DependencyInjection.Extensions;
        {{Stores}}
        public static class Startup { public static void Configure(IServiceCollection services) { {{registrations}} } }
        """);

    [Theory]
    [InlineData("services.AddScoped<IStore, FileStore>();")]
    [InlineData("services.TryAddSingleton<IStore, FileStore>();")]
    [InlineData("services.AddScoped(typeof(IStore), typeof(FileStore));")]
    [InlineData("services.AddSingleton<IStore>(sp => new FileStore());")]
    [InlineData("services.AddSingleton<IStore>(new FileStore());")]
    [InlineData("services.AddScoped<FileStore>(); services.AddScoped<IStore>(sp => sp.GetRequiredService<FileStore>());")]
    [InlineData("services.TryAddEnumerable(ServiceDescriptor.Scoped<IStore, FileStore>());")]
    public void Resolve_OneRegisteredImplementation_FollowsOnlyIt(string registrations)
    {
        var finding = Assert.Single(Scan(registrations));
        Assert.Equal("File.ReadAllText", finding.Call.Name);
        Assert.Equal(Severity.Error, finding.Severity);
        Assert.Equal("implementation of IStore.Load (registered in DI)", finding.Chain[1].Via);
        Assert.Contains("dispatch: IStore.Load to FileStore.Load (registered in DI)", finding.Evidence, StringComparison.Ordinal);
    }

    [Fact]
    public void Resolve_NothingRegistered_EveryImplementationAsAGuess()
    {
        var findings = Scan("");
        Assert.Equal(["File.ReadAllText", "Thread.Sleep"], findings.Select(f => f.Call.Name).Order(StringComparer.Ordinal));
        Assert.All(findings, f => Assert.Equal(Severity.Warning, f.Severity));
        Assert.All(findings, f => Assert.Equal("one of 2 implementations of IStore.Load (a guess: every implementation in the solution)", f.Chain[1].Via));
        Assert.All(findings, f => Assert.Contains(f.Reasons, r => r.EndsWith(", a guess", StringComparison.Ordinal)));
    }

    [Fact]
    public void Resolve_BothRegistered_OneOfTwoRegistered()
    {
        var findings = Scan("services.AddScoped<IStore, FileStore>(); services.AddScoped<IStore, SleepyStore>();");
        Assert.Equal(2, findings.Count);
        Assert.All(findings, f => Assert.Equal("one of 2 implementations of IStore.Load (registered in DI)", f.Chain[1].Via));
        Assert.All(findings, f => Assert.Equal(Severity.Warning, f.Severity));
    }

    [Fact]
    public void Resolve_ServiceFoundByReflection_IsNotNarrowed()
    {
        // Assembly scanning may register any implementation: the one explicit registration does not say which run.
        var findings = Scan("services.AddScoped<IStore, FileStore>(); foreach (var t in typeof(Startup).Assembly.GetTypes().Where(t => typeof(IStore).IsAssignableFrom(t))) { services.AddScoped(typeof(IStore), t); }");
        Assert.Equal(2, findings.Count);
    }

    [Fact]
    public void Resolve_DecoratorInAFactory_FollowsTheDecoratorAndWhatItWraps()
    {
        var findings = Snippet.Findings("""
            using Microsoft.Extensions.DependencyInjection;
            public interface IStore { string Load(); }
            public sealed class FileStore : IStore { public string Load() => File.ReadAllText("a"); }
            public sealed class SleepyStore : IStore { public string Load() { Thread.Sleep(10); return ""; } }
            public sealed class LoggedStore(IStore inner) : IStore { public string Load() => inner.Load(); }
            public static class Root { public static string Handle(IStore store) => store.Load(); }
            public static class Startup { public static void Configure(IServiceCollection services) => services.AddScoped<IStore>(sp => new LoggedStore(new FileStore())); }
            """);
        Assert.Equal("File.ReadAllText", Assert.Single(findings).Call.Name);
    }

    [Fact]
    public void Resolve_OpenGenericRegistration_FollowsItsImplementation()
    {
        var findings = Snippet.Findings("""
            using Microsoft.Extensions.DependencyInjection;
            public sealed class Order { }
            public interface IRepo<T> { T Get(); }
            public sealed class FileRepo<T> : IRepo<T> where T : new() { public T Get() { File.ReadAllText("a"); return new T(); } }
            public sealed class SleepyRepo<T> : IRepo<T> where T : new() { public T Get() { Thread.Sleep(10); return new T(); } }
            public static class Root { public static Order Handle(IRepo<Order> orders) => orders.Get(); }
            public static class Startup { public static void Configure(IServiceCollection services) => services.AddScoped(typeof(IRepo<>), typeof(FileRepo<>)); }
            """);
        var finding = Assert.Single(findings);
        Assert.Equal("File.ReadAllText", finding.Call.Name);
        Assert.Equal(Severity.Error, finding.Severity);
    }

    [Fact]
    public void Resolve_RegisteredTypeInheritsTheMethod_FollowsTheBase()
    {
        var findings = Snippet.Findings("""
            using Microsoft.Extensions.DependencyInjection;
            public interface IStore { string Load(); }
            public class FileStore : IStore { public virtual string Load() => File.ReadAllText("a"); }
            public sealed class NamedFileStore : FileStore { }
            public sealed class SleepyStore : IStore { public string Load() { Thread.Sleep(10); return ""; } }
            public static class Root { public static string Handle(IStore store) => store.Load(); }
            public static class Startup { public static void Configure(IServiceCollection services) => services.AddSingleton<IStore, NamedFileStore>(); }
            """);
        Assert.Equal("File.ReadAllText", Assert.Single(findings).Call.Name);
    }

    [Fact]
    public void Resolve_DecoratorBuiltFromATypeInAVariable_FollowsEveryTypeTheRegistrationsName()
    {
        // Jellyfin's AddSingletonWithDecorator(typeof(FfProbeKeyframeExtractor)): ActivatorUtilities builds the inner one from a Type.
        var findings = Snippet.Findings("""
            using Microsoft.Extensions.DependencyInjection;
            public interface IStore { string Load(); }
            public sealed class FileStore : IStore { public string Load() => File.ReadAllText("a"); }
            public sealed class SleepyStore : IStore { public string Load() { Thread.Sleep(10); return ""; } }
            public sealed class LoggedStore(IStore inner) : IStore { public string Load() => inner.Load(); }
            public static class Root { public static string Handle(IStore store) => store.Load(); }
            public static class Startup
            {
                public static void Configure(IServiceCollection services) => Decorated(services, typeof(FileStore));
                static void Decorated(IServiceCollection services, Type type) => services.AddSingleton<IStore>(sp =>
                {
                    var inner = ActivatorUtilities.CreateInstance(sp, type);
                    var decorator = ActivatorUtilities.CreateInstance<LoggedStore>(sp, inner);
                    return decorator;
                });
            }
            """);
        Assert.Equal("File.ReadAllText", Assert.Single(findings).Call.Name);
    }

    // Jellyfin's EventManager: Publish<T> hands T on to PublishInternal<T>, which calls every IEventConsumer<T> DI holds.
    private const string Events = """
        using Microsoft.Extensions.DependencyInjection;
        public interface IEventConsumer<in T> where T : EventArgs { void OnEvent(T e); }
        public interface IEventManager { void Publish<T>(T e) where T : EventArgs; }
        public sealed class UserCreated : EventArgs { }
        public sealed class OrderPlaced : EventArgs { }
        public sealed class UserMailer : IEventConsumer<UserCreated> { public void OnEvent(UserCreated e) => File.ReadAllText("a"); }
        public sealed class OrderSleeper : IEventConsumer<OrderPlaced> { public void OnEvent(OrderPlaced e) => Thread.Sleep(10); }
        public sealed class EventManager(IServiceProvider sp) : IEventManager
        {
            public void Publish<T>(T e) where T : EventArgs => PublishInternal(e);
            private void PublishInternal<T>(T e) where T : EventArgs
            {
                foreach (var consumer in sp.GetServices<IEventConsumer<T>>()) { consumer.OnEvent(e); }
            }
        }
        public static class Startup
        {
            public static void Configure(IServiceCollection services)
            {
                services.AddSingleton<IEventManager, EventManager>();
                services.AddScoped<IEventConsumer<UserCreated>, UserMailer>();
                services.AddScoped<IEventConsumer<OrderPlaced>, OrderSleeper>();
            }
        }
        """;

    [Fact]
    public void Resolve_GenericCallWithAKnownTypeArgument_FollowsOnlyItsImplementations()
    {
        var findings = Snippet.Findings(Events + """
            public static class Root { public static void Handle(IEventManager events) => events.Publish(new UserCreated()); }
            """);
        var finding = Assert.Single(findings);
        Assert.Equal("File.ReadAllText", finding.Call.Name);
        Assert.Equal(Severity.Error, finding.Severity);
        Assert.Contains(finding.Chain, h => h.Via == "implementation of IEventConsumer.OnEvent (the type argument T = UserCreated, registered in DI)");
        Assert.Contains("IEventConsumer.OnEvent to UserMailer.OnEvent (the type argument T = UserCreated, registered in DI)", finding.Evidence, StringComparison.Ordinal);
    }

    [Fact]
    public void Resolve_GenericCallWithAnExplicitTypeArgument_FollowsOnlyItsImplementations()
    {
        var findings = Snippet.Findings(Events + """
            public static class Root { public static void Handle(IEventManager events) => events.Publish<OrderPlaced>(new OrderPlaced()); }
            """);
        Assert.Equal("Thread.Sleep", Assert.Single(findings).Call.Name);
    }

    [Fact]
    public void Resolve_TypeArgumentCarriedIntoALambda_FollowsOnlyItsImplementations()
    {
        var findings = Snippet.Findings("""
            using Microsoft.Extensions.DependencyInjection;
            public interface IHandler<T> { void Handle(T e); }
            public sealed class Paid { }
            public sealed class Refunded { }
            public sealed class PaidMailer : IHandler<Paid> { public void Handle(Paid e) => File.ReadAllText("a"); }
            public sealed class RefundSleeper : IHandler<Refunded> { public void Handle(Refunded e) => Thread.Sleep(10); }
            public sealed class Bus(IServiceProvider sp)
            {
                public void Send<T>(T e) => sp.GetServices<IHandler<T>>().ToList().ForEach(h => h.Handle(e));
            }
            public static class Root { public static void Handle(Bus bus) => bus.Send(new Paid()); }
            public static class Startup
            {
                public static void Configure(IServiceCollection services)
                {
                    services.AddSingleton<Bus>();
                    services.AddScoped<IHandler<Paid>, PaidMailer>();
                    services.AddScoped<IHandler<Refunded>, RefundSleeper>();
                }
            }
            """);
        Assert.Equal("File.ReadAllText", Assert.Single(findings).Call.Name);
    }

    [Fact]
    public void Resolve_ContravariantConsumer_IsKeptForADerivedTypeArgument()
    {
        // IEventConsumer<in T>: a consumer of every EventArgs is an IEventConsumer<UserCreated> too.
        var findings = Snippet.Findings(Events + """
            public sealed class AuditAll : IEventConsumer<EventArgs> { public void OnEvent(EventArgs e) => new HttpClient().Send(new HttpRequestMessage()); }
            public static class Root { public static void Handle(IEventManager events) => events.Publish(new UserCreated()); }
            public static class MoreStartup { public static void Configure(IServiceCollection services) => services.AddScoped<IEventConsumer<EventArgs>, AuditAll>(); }
            """);
        Assert.Equal(["File.ReadAllText", "HttpClient.Send"], findings.Select(f => f.Call.Name).Order(StringComparer.Ordinal));
    }

    [Fact]
    public void Resolve_TypeArgumentWithNoImplementation_FollowsNone()
    {
        // Publish<EventArgs>: no consumer of EventArgs itself is registered, and those of UserCreated or OrderPlaced cannot take one.
        var findings = Snippet.Findings(Events + """
            public static class Root { public static void Handle(IEventManager events) => events.Publish(EventArgs.Empty); }
            """);
        Assert.Empty(findings);
    }

    [Fact]
    public void Resolve_ClassTypeArgumentFromTheCaller_FollowsOnlyItsImplementations()
    {
        // Relay<T>'s T is its class's: the caller's Relay<UserCreated> binds it, and Publish<T> gets UserCreated.
        var findings = Snippet.Findings(Events + """
            public sealed class Relay<T>(IEventManager events) where T : EventArgs { public void Send(T e) => events.Publish(e); }
            public static class Root { public static void Handle(Relay<UserCreated> relay) => relay.Send(new UserCreated()); }
            """);
        Assert.Equal("File.ReadAllText", Assert.Single(findings).Call.Name);
    }

    [Fact]
    public void Resolve_GenericCallWithAnUnknownTypeArgument_StaysOneOfEvery()
    {
        // Relay<T> reached through a non-generic interface: nothing binds T, every consumer DI holds may run.
        var findings = Snippet.Findings(Events + """
            public interface IRelay { void Flush(); }
            public sealed class Relay<T>(IEventManager events, T last) : IRelay where T : EventArgs { public void Flush() => events.Publish(last); }
            public static class Root { public static void Handle(IRelay relay) => relay.Flush(); }
            """);
        Assert.Equal(["File.ReadAllText", "Thread.Sleep"], findings.Select(f => f.Call.Name).Order(StringComparer.Ordinal));
        Assert.All(findings, f => Assert.Contains(f.Chain, h => h.Via == "one of 2 implementations of IEventConsumer.OnEvent (registered in DI)"));
    }
}
