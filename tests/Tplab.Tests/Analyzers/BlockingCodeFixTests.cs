extern alias analyzers;
extern alias codefixes;
using analyzers::Tplab.Blocking;
using AnalyzerIds = analyzers::Tplab.Analyzers.DiagnosticIds;
using Tplab.Tests.Support;
using codefixes::Tplab.Analyzers.CodeFixes;

namespace Tplab.Tests.Analyzers;

/// <summary>
/// Issue 35 §3: the editor's fixes for TPL0001/TPL0002, tplab fix's single-document case — each form before and after
/// (the fixed code compiled and analysed again), Fix All in a document, and no code action wherever fix refuses or
/// would reach beyond the document.
/// </summary>
[ParallelSafe]
public sealed class BlockingCodeFixTests
{
    private const string Totals = """

        public static class Totals
        {
            public static async Task<int> SumAsync(int id) { await Task.Delay(1); return id; }
        }
        """;

    private const string Head = """
        using System;
        using System.Threading;
        using System.Threading.Tasks;
        using Microsoft.AspNetCore.Mvc;

        [ApiController]
        [Route("api/cart")]
        public class CartController : ControllerBase
        {
        """;

    [Fact]
    public async Task Sleep_TwoCallsFromAMinimalApi_DelayWithTheHelperAndTheLambdaMadeAsync()
    {
        const string Before = """
            using System.Threading;
            using System.Threading.Tasks;
            using Microsoft.AspNetCore.Builder;

            var app = WebApplication.Create();
            app.MapGet("/orders/{id}", (int id) => Orders.Find(id));
            app.Run();

            static class Orders
            {
                public static string Find(int id)
                {
                    Thread.{|TPL0001:Sleep|}(100);
                    return "order";
                }
            }
            """;
        const string After = """
            using System.Threading;
            using System.Threading.Tasks;
            using Microsoft.AspNetCore.Builder;

            var app = WebApplication.Create();
            app.MapGet("/orders/{id}", async (int id) => await Orders.FindAsync(id));
            app.Run();

            static class Orders
            {
                public static async Task<string> FindAsync(int id)
                {
                    await Task.Delay(100);
                    return "order";
                }
            }
            """;
        await new CodeFixTest(Before, After, program: true).RunAsync();
    }

    [Fact]
    public async Task Result_InAnAction_AwaitAndTheActionKeepsItsName()
    {
        await new CodeFixTest(Head + """
                [HttpGet("{id:int}")]
                public int Get(int id) => Totals.SumAsync(id).{|TPL0002:Result|};
            }
            """ + Totals, Head + """
                [HttpGet("{id:int}")]
                public async Task<int> Get(int id) => await Totals.SumAsync(id);
            }
            """ + Totals).RunAsync();
    }

    [Fact]
    public async Task Wait_InAVoidHelper_HelperBecomesTaskWithTheSuffixAndItsCallerAwaits()
    {
        await new CodeFixTest(Head + """
                [HttpPost]
                public IActionResult Post()
                {
                    Audit.Write(1);
                    return Ok();
                }
            }

            public static class Audit
            {
                public static void Write(int id) => Totals.SumAsync(id).{|TPL0002:Wait|}();
            }
            """ + Totals, Head + """
                [HttpPost]
                public async Task<IActionResult> Post()
                {
                    await Audit.WriteAsync(1);
                    return Ok();
                }
            }

            public static class Audit
            {
                public static async Task WriteAsync(int id) => await Totals.SumAsync(id);
            }
            """ + Totals).RunAsync();
    }

    [Fact]
    public async Task GetResult_InAnAsyncAction_AwaitOnly()
    {
        await new CodeFixTest(Head + """
                [HttpGet]
                public async Task<int> Get()
                {
                    await Task.Yield();
                    return Totals.SumAsync(1).GetAwaiter().{|TPL0002:GetResult|}();
                }
            }
            """ + Totals, Head + """
                [HttpGet]
                public async Task<int> Get()
                {
                    await Task.Yield();
                    return await Totals.SumAsync(1);
                }
            }
            """ + Totals).RunAsync();
    }

    [Fact]
    public async Task FixAll_TwoActionsInADocument_BothRewritten()
    {
        // One form (one equivalence key): Fix All fixes every site of the form at once.
        await new CodeFixTest(Head + """
                [HttpGet("a")]
                public int A() => Totals.SumAsync(1).{|TPL0002:Result|};

                [HttpGet("b")]
                public int B() { Totals.SumAsync(2).{|TPL0002:Wait|}(); return 2; }
            }
            """ + Totals, Head + """
                [HttpGet("a")]
                public async Task<int> A() => await Totals.SumAsync(1);

                [HttpGet("b")]
                public async Task<int> B() { await Totals.SumAsync(2); return 2; }
            }
            """ + Totals).RunAsync();
    }

    [Fact]
    public async Task SleepInAnAsyncAction_DelayOnly()
    {
        await new CodeFixTest(Head + """
                [HttpGet]
                public async Task<int> Get() { Thread.{|TPL0001:Sleep|}(10); return await Totals.SumAsync(1); }
            }
            """ + Totals, Head + """
                [HttpGet]
                public async Task<int> Get() { await Task.Delay(10); return await Totals.SumAsync(1); }
            }
            """ + Totals).RunAsync();
    }

    [Fact]
    public async Task AggregateExceptionCatch_KeptAsFixKeepsIt_TheContinuationRethrowsTheAggregate()
    {
        await new CodeFixTest(Head + """
                [HttpGet]
                public int Get()
                {
                    try { return Totals.SumAsync(1).{|TPL0002:Result|}; }
                    catch (AggregateException e) { return e.InnerExceptions.Count; }
                }
            }
            """ + Totals, Head + """
                [HttpGet]
                public async Task<int> Get()
                {
                    try { return await Totals.SumAsync(1).ContinueWith(done => done.Result, TaskScheduler.Default); }
                    catch (AggregateException e) { return e.InnerExceptions.Count; }
                }
            }
            """ + Totals).RunAsync();
    }

    // Where tplab fix refuses (or goes beyond one document), the editor offers nothing: the fixed code is the source.
    public static TheoryData<string, string> Refusals => new()
    {
        { "a lock body (CS1996)", Head + """
                private static readonly object Gate = new();

                [HttpGet]
                public int Get() { {|TPL0003:lock|} (Gate) { return Totals.SumAsync(1).{|TPL0002:Result|}; } }
            }
            """ + Totals },
        { "TPFIX001 a Monitor region", Head + """
                private static readonly object Gate = new();

                [HttpGet]
                public int Get()
                {
                    Monitor.{|TPL0003:Enter|}(Gate);
                    try { return Totals.SumAsync(1).{|TPL0002:Result|}; }
                    finally { Monitor.Exit(Gate); }
                }
            }
            """ + Totals },
        { "TPFIX003 the thread's id read after it", Head + """
                [HttpGet]
                public int Get()
                {
                    var total = Totals.SumAsync(1).{|TPL0002:Result|};
                    return total + Environment.CurrentManagedThreadId;
                }
            }
            """ + Totals },
        { "TPFIX003 culture set in the method made async", Head + """
                [HttpGet]
                public int Get()
                {
                    System.Globalization.CultureInfo.CurrentCulture = System.Globalization.CultureInfo.InvariantCulture;
                    return Totals.SumAsync(1).{|TPL0002:Result|};
                }
            }
            """ + Totals },
        { "TPFIX005 Task.Run's lambda (fix decides the hop)", Head + """
                [HttpGet]
                public async Task<int> Get() => await Task.Run(() => Totals.SumAsync(1).{|TPL0002:Result|});
            }
            """ + Totals },
        { "a virtual method (its family changes with it)", Head + """
                [HttpGet]
                public int Get() => new Store().Load();
            }

            public class Store
            {
                public virtual int Load() => Totals.SumAsync(1).{|TPL0002:Result|};
            }
            """ + Totals },
        { "Wait with a timeout (no mechanical form)", Head + """
                [HttpGet]
                public bool Get() => Totals.SumAsync(1).{|TPL0002:Wait|}(100);
            }
            """ + Totals },
    };

    [Theory]
    [MemberData(nameof(Refusals))]
    public async Task Refused_NoCodeAction(string why, string source)
    {
        Assert.NotEmpty(why);
        await new CodeFixTest(source, source).RunAsync();
    }

    [Fact]
    public async Task CallerInAnotherDocument_NoCodeAction()
    {
        var source = """
            using System.Threading.Tasks;

            public static class Audit
            {
                public static int Read() => Totals.SumAsync(1).{|TPL0002:Result|};
            }
            """ + Totals;
        await new CodeFixTest(source, source).With("/0/Test1.cs", """
            using Microsoft.AspNetCore.Mvc;

            [ApiController]
            [Route("api/audit")]
            public class AuditController : ControllerBase
            {
                [HttpGet]
                public int Get() => Audit.Read();
            }
            """).RunAsync();
    }

    [Fact]
    public async Task MethodGroupHandler_NoCodeAction()
    {
        const string Source = """
            using System.Threading;
            using Microsoft.AspNetCore.Builder;

            var app = WebApplication.Create();
            app.MapGet("/orders", Orders.List);
            app.Run();

            static class Orders
            {
                public static string List()
                {
                    Thread.{|TPL0001:Sleep|}(100);
                    return "orders";
                }
            }
            """;
        await new CodeFixTest(Source, Source, program: true).RunAsync();
    }

    [Fact]
    public async Task OtherKinds_NoCodeAction_TheMessageNamesTplabFix()
    {
        var source = Head + """
                [HttpGet]
                public string Get() => System.IO.File.{|TPL0008:ReadAllText|}("/etc/hostname");
            }
            """;
        await new CodeFixTest(source, source).RunAsync();
        Assert.Equal([AnalyzerIds.For(BlockingKind.Sleep), AnalyzerIds.For(BlockingKind.SyncOverAsync)], new BlockingCodeFixProvider().FixableDiagnosticIds.ToArray());
        Assert.All(AnalyzerIds.Descriptors, d => Assert.Contains("(tplab fix --finding {3})", d.MessageFormat.ToString(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal));
    }
}
