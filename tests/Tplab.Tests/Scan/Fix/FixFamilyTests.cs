using Tplab.Common;
using Tplab.Scan;
using Tplab.Scan.Fix;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// Propagation through an interface with two implementations, a constructor that cannot await,: the blocking implementation awaits, the other returns Task.FromResult (no CS1998 under
/// warnings as errors), the interface changes with them, the endpoint's lambda becomes async, and the constructor
/// off the chain keeps waiting, named in a note.
/// </summary>
[Collection(TestCollections.Fix)]
public sealed class FixFamilyTests
{
    private const string Program = """
        var builder = WebApplication.CreateBuilder(args);
        builder.Services.AddSingleton<IRates, DbRates>();
        builder.Services.AddSingleton<Prices>();
        var app = builder.Build();
        app.MapGet("/price/{currency}", (string currency, Prices prices) => Results.Ok(prices.Convert(10m, currency)));
        app.Run();

        public interface IRates
        {
            decimal Rate(string currency);
        }

        public sealed class DbRates : IRates
        {
            public decimal Rate(string currency)
            {
                // the driver's round trip
                Thread.Sleep(20);
                return currency.Length;
            }
        }

        public sealed class FixedRates : IRates
        {
            public decimal Rate(string currency) => 2m;
        }

        public sealed class Prices(IRates rates)
        {
            public decimal Convert(decimal price, string currency) => price * rates.Rate(currency);
        }

        public sealed class Warmup
        {
            public Warmup(IRates rates)
            {
                Rate = rates.Rate("EUR");
            }

            public decimal Rate { get; }
        }
        """;

    [Fact]
    public async Task FixApply_InterfaceFamily_AllImplementationsChangeConstructorWaitsBuildCompiles()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-fix-family-").FullName;
        try
        {
            File.Copy(Path.Combine(RepoPaths.Root, "Directory.Build.props"), Path.Combine(folder, "Directory.Build.props"));
            File.WriteAllText(Path.Combine(folder, "Rates.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk.Web\"><PropertyGroup><NoWarn>$(NoWarn);CA1515;CA1812;CA1822</NoWarn></PropertyGroup></Project>\n");
            File.WriteAllText(Path.Combine(folder, "Program.cs"), Program);
            var output = new StringWriter();
            var code = await FixRun.RunAsync(new FixOptions { Path = folder, Apply = true, Force = true, Format = "json" }, SilentProgress.Instance, output, CancellationToken.None);
            var report = Path.Combine(folder, "fix.json");
            File.WriteAllText(report, output.ToString());
            Assert.True(code == ExitCodes.Ok, output.ToString());

            var text = File.ReadAllText(Path.Combine(folder, "Program.cs"));
            Assert.Contains("Task<decimal> RateAsync(string currency);", text, StringComparison.Ordinal);
            Assert.Contains("public async Task<decimal> RateAsync(string currency)", text, StringComparison.Ordinal);
            Assert.Contains("await Task.Delay(20);", text, StringComparison.Ordinal);
            Assert.Contains("public Task<decimal> RateAsync(string currency) => Task.FromResult(2m);", text, StringComparison.Ordinal);
            Assert.Contains("public async Task<decimal> ConvertAsync(decimal price, string currency) => price * await rates.RateAsync(currency);", text, StringComparison.Ordinal);
            Assert.Contains("async (string currency, Prices prices) => Results.Ok(await prices.ConvertAsync(10m, currency))", text, StringComparison.Ordinal);
            Assert.Contains("Rate = rates.RateAsync(\"EUR\").GetAwaiter().GetResult();", text, StringComparison.Ordinal);
            Assert.Contains("// the driver's round trip", text, StringComparison.Ordinal);
            Assert.Contains("another caller waits on the task: Warmup..ctor", output.ToString(), StringComparison.Ordinal);

            var after = await Scanner.ScanAsync(new ScanOptions { Path = folder }, SilentProgress.Instance, CancellationToken.None);
            Assert.DoesNotContain(after.Findings, f => f.Call.Name == "Thread.Sleep");
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
