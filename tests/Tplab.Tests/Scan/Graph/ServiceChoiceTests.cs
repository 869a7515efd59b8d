using Tplab.Scan.Findings;
using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Graph;

/// <summary>
/// Implementations DI picks when the app starts (registered under an if, a switch or a ?: on configuration or the
/// environment, or a factory that chooses by one) are what every call of that deployment runs: not a guess among
/// several, so not a warning for that reason.
/// </summary>
[ParallelSafe]
public sealed class ServiceChoiceTests
{
    private const string Stores = """
        public interface IStore { string Load(); }
        public sealed class FileStore : IStore { public string Load() => File.ReadAllText("a"); }
        public sealed class SleepyStore : IStore { public string Load() { Thread.Sleep(10); return ""; } }
        public static class Root { public static string Handle(IStore store) => store.Load(); }
        """;

    private static IReadOnlyList<Finding> Scan(string registrations) => Snippet.Findings($$"""
        using Microsoft.Extensions.DependencyInjection;
        {{Stores}}
        public static class Startup
        {
            public static void Configure(IServiceCollection services)
            {
                var provider = Environment.GetEnvironmentVariable("STORE");
                {{registrations}}
            }
        }
        """);

    [Theory]
    // An if on the environment, each side registering one.
    [InlineData("""if (provider == "file") { services.AddScoped<IStore, FileStore>(); } else { services.AddScoped<IStore, SleepyStore>(); }""")]
    // A switch statement.
    [InlineData("""switch (provider) { case "file": services.AddScoped<IStore, FileStore>(); break; default: services.AddScoped<IStore, SleepyStore>(); break; }""")]
    // A factory choosing with ?: or a switch expression.
    [InlineData("""services.AddScoped<IStore>(sp => provider == "file" ? new FileStore() : new SleepyStore());""")]
    [InlineData("""services.AddScoped<IStore>(sp => provider switch { "file" => new FileStore(), _ => new SleepyStore() });""")]
    public void Dispatch_ImplementationChosenByConfiguration_IsAnErrorInEach(string registrations)
    {
        var findings = Scan(registrations);
        Assert.Equal(["File.ReadAllText", "Thread.Sleep"], findings.Select(f => f.Call.Name).Order(StringComparer.Ordinal));
        Assert.All(findings, f => Assert.Equal(Severity.Error, f.Severity));
        Assert.All(findings, f => Assert.Equal("one of 2 implementations of IStore.Load (registered in DI, one chosen at startup by configuration)", f.Chain[1].Via));
        Assert.All(findings, f => Assert.DoesNotContain(f.Reasons, r => r.Contains("implementations", StringComparison.Ordinal)));
    }

    [Fact]
    public void Dispatch_OneRegistrationUnconditional_StaysOneOfSeveral()
    {
        // FileStore always registered, SleepyStore added in one environment: an enumerable of both, not one choice.
        var findings = Scan("""services.AddScoped<IStore, FileStore>(); if (provider == "sleepy") { services.AddScoped<IStore, SleepyStore>(); }""");
        Assert.Equal(2, findings.Count);
        Assert.All(findings, f => Assert.Equal(Severity.Warning, f.Severity));
        Assert.All(findings, f => Assert.Equal("one of 2 implementations of IStore.Load (registered in DI)", f.Chain[1].Via));
    }
}
