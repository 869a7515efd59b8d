using Tplab.Scan.Findings;
using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Findings;

/// <summary>
/// A service DI builds by type runs its constructor when an entry point asks for it: on every request for a scoped
/// or transient one (an error), once for a singleton (a warning), and what that constructor asks for in turn.
/// </summary>
[ParallelSafe]
public sealed class ResolutionsTests
{
    private static IReadOnlyList<Finding> Scan(string registration) => Snippet.Findings($$"""
        using Microsoft.Extensions.DependencyInjection;
        public interface IRates { decimal Rate(string currency); }
        public sealed class FileRates : IRates
        {
            private readonly string _table;
            public FileRates() { _table = File.ReadAllText("rates.csv"); }
            public decimal Rate(string currency) => _table.Length;
        }
        public sealed class Pricing(IRates rates) { public decimal Price(decimal amount) => amount * rates.Rate("EUR"); }
        public static class Root { public static decimal Handle(Pricing pricing) => pricing.Price(1); }
        public static class Startup { public static void Configure(IServiceCollection services) { services.AddScoped<Pricing>(); {{registration}} } }
        """);

    [Fact]
    public void Resolve_ScopedServiceWhoseConstructorReadsAFile_IsAnErrorThroughThePrimaryConstructor()
    {
        var finding = Assert.Single(Scan("services.AddScoped<IRates, FileRates>();"));
        Assert.Equal("File.ReadAllText", finding.Call.Name);
        Assert.Equal(Severity.Error, finding.Severity);
        Assert.Equal("resolved from DI: scoped FileRates built for IRates", finding.Chain[1].Via);
        Assert.Equal("FileRates (constructor)", finding.Chain[1].Display.Replace(" (lambda)", "", StringComparison.Ordinal));
    }

    [Fact]
    public void Resolve_SingletonWhoseConstructorReadsAFile_IsAWarningOnce()
    {
        var finding = Assert.Single(Scan("services.AddSingleton<IRates, FileRates>();"));
        Assert.Equal(Severity.Warning, finding.Severity);
        Assert.Contains(finding.Reasons, r => r.StartsWith("the singleton is built once", StringComparison.Ordinal));
    }

    [Fact]
    public void Resolve_NotRegistered_ConstructorNotFollowed()
    {
        Assert.Empty(Scan(""));
    }
}
