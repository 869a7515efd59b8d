extern alias analyzers;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;
using Tplab.Blocking;
using Tplab.Scan;
using Tplab.Scan.Findings;
using Tplab.Tests.Support;
using AnalyzerIds = analyzers::Tplab.Analyzers.DiagnosticIds;
using AnalyzerRun = analyzers::Tplab.Analyzers.CompilationAnalysis;

namespace Tplab.Tests.Analyzers;

/// <summary>TPL0001… in one compilation: scan's roots, rules and chains as analyzer diagnostics, with the usual suppressions.</summary>
[ParallelSafe]
public sealed class BlockingCallAnalyzerTests
{
    private const string MinimalApi = """
        using Microsoft.AspNetCore.Builder;

        var app = WebApplication.Create();
        app.MapGet("/orders/{id}", (int id) => OrderService.Find(id));
        app.Run();

        static class OrderService
        {
            public static string Find(int id) => Repository.Load(id);
        }

        static class Repository
        {
            public static string Load(int id)
            {
                System.Threading.Thread.{|#0:Sleep|}(100);
                return id.ToString(System.Globalization.CultureInfo.InvariantCulture);
            }
        }
        """;

    [Fact]
    public async Task MinimalApi_SleepTwoCallsDeep_Tpl0001WithTheChain()
    {
        var test = new AnalyzerTest(MinimalApi) { TestState = { OutputKind = OutputKind.ConsoleApplication } };
        test.ExpectedDiagnostics.Add(new DiagnosticResult("TPL0001", DiagnosticSeverity.Warning).WithLocation(0)
            .WithMessage("Thread.Sleep blocks a pool thread: GET /orders/{id} → Program.Main (lambda) → OrderService.Find → Repository.Load → Thread.Sleep (tplab fix --finding "
                + FindingId.For("TestProject", "Repository.Load", "Thread.Sleep", 0) + ")"));
        await test.RunAsync();
    }

    [Fact]
    public async Task MvcAction_Result_Tpl0002()
    {
        var test = new AnalyzerTest("""
            using System.Threading.Tasks;
            using Microsoft.AspNetCore.Mvc;

            [ApiController]
            [Route("api/cart")]
            public class CartController : ControllerBase
            {
                [HttpGet("{id:int}")]
                public int Get(int id) => Totals.SumAsync(id).{|TPL0002:Result|};
            }

            public static class Totals
            {
                public static async Task<int> SumAsync(int id) { await Task.Delay(1); return id; }
            }
            """);
        await test.RunAsync();
    }

    [Fact]
    public async Task BlockingCall_NotReachableFromAnEntryPoint_NoDiagnostic()
    {
        var test = new AnalyzerTest("""
            public static class Tool
            {
                public static void Pause() => System.Threading.Thread.Sleep(100);
            }
            """);
        await test.RunAsync();
    }

    [Fact]
    public async Task Pragma_SuppressesTheSite()
    {
        var test = new AnalyzerTest(MinimalApi.Replace("System.Threading.Thread.{|#0:Sleep|}(100);", "#pragma warning disable TPL0001\n        System.Threading.Thread.Sleep(100);\n#pragma warning restore TPL0001", StringComparison.Ordinal))
        {
            TestState = { OutputKind = OutputKind.ConsoleApplication },
        };
        await test.RunAsync();
    }

    [Fact]
    public async Task TplabIgnore_SuppressesTheSiteAsScanDoes()
    {
        var test = new AnalyzerTest(MinimalApi.Replace("System.Threading.Thread.{|#0:Sleep|}(100);", "System.Threading.Thread.Sleep(100); // tplab-ignore: a test double", StringComparison.Ordinal))
        {
            TestState = { OutputKind = OutputKind.ConsoleApplication },
        };
        await test.RunAsync();
    }

    [Fact]
    public async Task AwaitedTaskRun_OverWorkThatDoesNotBlock_Tpl0011AsAnInfo()
    {
        // The site is Task.Run's argument, where scan places it. scan's note is an info: the editor and the compiler's
        // ErrorLog show it, the console of `dotnet build` does not (MSBuild prints no info diagnostic), which is why
        // bench/analyzer-vs-scan.sh reads the ErrorLog.
        var test = new AnalyzerTest("""
            using System.Threading.Tasks;
            using Microsoft.AspNetCore.Builder;

            public static class ReportEndpoints
            {
                public static void MapReports(WebApplication app) =>
                    app.MapGet("/summary", async () =>
                    {
                        var summary = await Task.Run({|#0:(|}) => Stats.Snapshot());
                        return summary;
                    });
            }

            public static class Stats
            {
                public static int Snapshot() => 42;
            }
            """);
        test.ExpectedDiagnostics.Add(new DiagnosticResult("TPL0011", DiagnosticSeverity.Info).WithLocation(0)
            .WithMessage("Task.Run moves work that does not block to another pool thread and saves none: GET /summary → ReportEndpoints.MapReports (lambda) → Task.Run (tplab fix --finding "
                + FindingId.For("TestProject", "ReportEndpoints.MapReports", "Task.Run", 0) + ")"));
        await test.RunAsync();
    }

    [Fact]
    public void Ids_OnePerKind_InTheEnumsOrder()
    {
        var kinds = Enum.GetValues<BlockingKind>();
        Assert.Equal(kinds.Select(k => "TPL" + ((int)k + 1).ToString("D4", System.Globalization.CultureInfo.InvariantCulture)), AnalyzerIds.Descriptors.Select(d => d.Id));
        Assert.Equal("TPL0001", AnalyzerIds.For(analyzers::Tplab.Blocking.BlockingKind.Sleep));
        Assert.Equal("TPL0011", AnalyzerIds.For(analyzers::Tplab.Blocking.BlockingKind.TaskRunOffload));
        Assert.All(AnalyzerIds.Descriptors, d => Assert.Equal(DiagnosticSeverity.Warning, d.DefaultSeverity));
    }

    [Fact]
    public void MaxDepth_IsScansDefault() => Assert.Equal(ScanOptions.DefaultMaxDepth, AnalyzerRun.MaxDepth);

    [Fact]
    public void Words_StandIn_NamesEveryEnumAsScanDoes()
    {
        foreach (var value in Enum.GetValues<CodePlace>().Cast<Enum>().Concat(Enum.GetValues<BlockingKind>().Cast<Enum>()).Concat(Enum.GetValues<CallContext>().Cast<Enum>())
            .Append(CallContext.RequestPath | CallContext.TaskRun))
        {
            Assert.Equal(System.Text.Json.JsonNamingPolicy.KebabCaseLower.ConvertName(value.ToString()), analyzers::Tplab.Common.Json.Words.Kebab(value.ToString()));
        }
    }
}
