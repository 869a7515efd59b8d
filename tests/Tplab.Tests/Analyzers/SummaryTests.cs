extern alias analyzers;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Testing;
using Tplab.Scan.Findings;
using Tplab.Tests.Support;
using SummaryGenerator = analyzers::Tplab.Analyzers.Summaries.SummaryGenerator;

namespace Tplab.Tests.Analyzers;

/// <summary>§2: a library's blocking methods recorded in its assembly by the generator, read by the web project's analyzer.</summary>
[ParallelSafe]
public sealed class SummaryTests
{
    private const string Library = """
        namespace Shop.Data;

        public class OrderStore
        {
            public string Load(int id) => Disk.Read(id);

            public int Count() => 3;
        }

        internal static class Disk
        {
            public static string Read(int id)
            {
                System.Threading.Thread.Sleep(50);
                return "order";
            }
        }
        """;

    private const string Web = """
        using Microsoft.AspNetCore.Builder;
        using Shop.Data;

        var app = WebApplication.Create();
        var store = new OrderStore();
        app.MapGet("/orders/{id}", (int id) => Orders.Find(store, id));
        app.MapGet("/count", () => store.Count());
        app.Run();

        static class Orders
        {
            public static string Find(OrderStore store, int id) => store.{|#0:Load|}(id);
        }
        """;

    [Fact]
    public async Task WebProject_CallIntoABlockingLibraryMethod_ReportedWithTheLibrarysChain()
    {
        var (library, summary) = BuildLibrary(Library);
        Assert.Contains("tplab.blocking.v1", summary, StringComparison.Ordinal);
        var test = new AnalyzerTest(Web) { TestState = { OutputKind = OutputKind.ConsoleApplication } };
        test.TestState.AdditionalReferences.Add(library);
        test.ExpectedDiagnostics.Add(new DiagnosticResult("TPL0001", DiagnosticSeverity.Warning).WithLocation(0)
            .WithMessage("OrderStore.Load blocks a pool thread: GET /orders/{id} → Program.Main (lambda) → Orders.Find → OrderStore.Load → Disk.Read → Thread.Sleep (tplab fix --finding "
                + FindingId.For("TestProject", "Orders.Find", "OrderStore.Load", 0) + ")"));
        await test.RunAsync();
    }

    [Fact]
    public async Task Summary_OfAnotherVersion_IgnoredWithOneInfo()
    {
        var library = Emit("Shop.Data", "[assembly: System.Reflection.AssemblyMetadata(\"tplab.blocking.v9\", \"Shop.Data.OrderStore\\tLoad\\tSleep\\tThread.Sleep\\tOrderStore.Load\\n\")]\n" + Library, []);
        var test = new AnalyzerTest(Web.Replace("store.{|#0:Load|}(id)", "store.Load(id)", StringComparison.Ordinal)) { TestState = { OutputKind = OutputKind.ConsoleApplication } };
        test.TestState.AdditionalReferences.Add(library);
        test.ExpectedDiagnostics.Add(new DiagnosticResult("TPL0100", DiagnosticSeverity.Info).WithArguments("Shop.Data", "tplab.blocking.v9"));
        await test.RunAsync();
    }

    [Theory]
    [InlineData("Shop.Data.OrderStore\tLoad\tSleepy\tThread.Sleep\tOrderStore.Load\n")]
    [InlineData("Shop.Data.OrderStore\tLoad\n")]
    [InlineData("Shop.Data.OrderStore\tLoad\t3\tThread.Sleep\tOrderStore.Load\n")]
    public async Task Summary_Malformed_IgnoredWithOneInfo(string value)
    {
        var attribute = "[assembly: System.Reflection.AssemblyMetadata(\"tplab.blocking.v1\", " + SymbolDisplay.FormatLiteral(value, quote: true) + ")]\n";
        var library = Emit("Shop.Data", attribute + Library, []);
        var test = new AnalyzerTest(Web.Replace("store.{|#0:Load|}(id)", "store.Load(id)", StringComparison.Ordinal)) { TestState = { OutputKind = OutputKind.ConsoleApplication } };
        test.TestState.AdditionalReferences.Add(library);
        test.ExpectedDiagnostics.Add(new DiagnosticResult("TPL0100", DiagnosticSeverity.Info).WithArguments("Shop.Data", "tplab.blocking.v1"));
        await test.RunAsync();
    }

    // The library compiled with the generator run, as its build would; the summary's source returned beside it.
    private static (MetadataReference Library, string Summary) BuildLibrary(string source)
    {
        var compilation = Compilation("Shop.Data", source, []);
        var driver = CSharpGeneratorDriver.Create(new SummaryGenerator()).RunGeneratorsAndUpdateCompilation(compilation, out var updated, out var problems);
        Assert.Empty(problems);
        var summary = string.Concat(driver.GetRunResult().GeneratedTrees.Select(t => t.ToString()));
        return (Emit(updated), summary);
    }

    private static MetadataReference Emit(string name, string source, MetadataReference[] references) => Emit(Compilation(name, source, references));

    private static MetadataReference Emit(Compilation compilation)
    {
        using var image = new MemoryStream();
        var emitted = compilation.Emit(image);
        Assert.True(emitted.Success, string.Join("; ", emitted.Diagnostics.Take(3)));
        return MetadataReference.CreateFromImage(image.ToArray());
    }

    private static CSharpCompilation Compilation(string name, string source, MetadataReference[] references) =>
        CSharpCompilation.Create(name, [CSharpSyntaxTree.ParseText(source, path: "/lib/" + name + ".cs")], [.. AnalyzerTest.Framework.Value, .. references],
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
}
