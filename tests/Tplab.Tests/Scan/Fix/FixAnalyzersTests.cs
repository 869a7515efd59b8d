using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using Tplab.Scan.Fix.Editing;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// <c>--analyzers</c>: the compile check runs the project's own analyzers before and after a change and lists the
/// warnings the change adds (only those); without it the analyzers do not run.
/// </summary>
[ParallelSafe]
public sealed class FixAnalyzersTests
{
    private const string Before = """
        using System.Threading.Tasks;
        public static class Prices
        {
            public static async Task<int> Old(Task<int> a) => await a;
            public static int Get(Task<int> price) => price.Result;
        }
        """;

    private static (Solution Solution, DocumentId Document) Load()
    {
        var workspace = new AdhocWorkspace();
        var projectId = ProjectId.CreateNewId();
        var solution = workspace.CurrentSolution
            .AddProject(ProjectInfo.Create(projectId, VersionStamp.Default, "Prices", "Prices", LanguageNames.CSharp,
                compilationOptions: new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary),
                metadataReferences: FixPartsTests.References.Value,
                analyzerReferences: [new AnalyzerImageReference([new AwaitAnalyzer()])]));
        var document = DocumentId.CreateNewId(projectId);
        return (solution.AddDocument(document, "Prices.cs", SourceText.From(Before), filePath: "/prices/Prices.cs"), document);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task CheckAsync_WithAnalyzers_ListsOnlyTheWarningsTheChangeAdds(bool analyzers)
    {
        var (original, document) = Load();
        var changed = original.WithDocumentText(document, SourceText.From(Before.Replace("public static int Get(Task<int> price) => price.Result;",
            "public static async Task<int> Get(Task<int> price) => await price;", StringComparison.Ordinal)));
        var check = new BuildCheck(original, "/prices", analyzers);

        var (error, warnings) = await check.CheckAsync(changed, original, CancellationToken.None);

        Assert.Null(error);
        // Old's await was there before: only Get's is new.
        string[] expected = analyzers ? ["Prices.cs:5: TPTEST1 an await"] : [];
        Assert.Equal(expected, warnings);
    }

#pragma warning disable RS1001, RS1025, RS1026, RS1036, RS1038, RS1041, RS2008 // a test's own analyzer, loaded from memory
    [DiagnosticAnalyzer(LanguageNames.CSharp)]
    private sealed class AwaitAnalyzer : DiagnosticAnalyzer
    {
        private static readonly DiagnosticDescriptor Rule = new("TPTEST1", "await", "an await", "Test", DiagnosticSeverity.Warning, isEnabledByDefault: true);

        public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => [Rule];

        public override void Initialize(AnalysisContext context)
        {
            context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
            context.EnableConcurrentExecution();
            context.RegisterSyntaxNodeAction(c => c.ReportDiagnostic(Diagnostic.Create(Rule, c.Node.GetLocation())), SyntaxKind.AwaitExpression);
        }
    }
#pragma warning restore RS1001, RS1025, RS1026, RS1036, RS1038, RS1041, RS2008
}
