using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using Tplab.Scan.Fix;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Propagation;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// The parts of a fix's propagation each on its own, on snippets compiled in memory (no MSBuild): the family of a
/// method, a lambda's decision by delegate type, a caller that cannot await named as a boundary, a lock made a
/// semaphore or refused, the name a new type reference takes. The whole chain is tested end to end in the other Fix tests.
/// </summary>
public sealed class FixPartsTests
{
    internal static readonly Lazy<MetadataReference[]> References = new(() =>
        [.. ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator)
            .Where(p => Path.GetFileName(p).StartsWith("System.", StringComparison.Ordinal) || Path.GetFileName(p) is "mscorlib.dll" or "netstandard.dll")
            .Select(p => MetadataReference.CreateFromFile(p))]);

    internal static (Solution Solution, FixContext Context, SyntaxTree Tree) Load(string code)
    {
        var workspace = new AdhocWorkspace();
        var projectId = ProjectId.CreateNewId();
        var solution = workspace.CurrentSolution
            .AddProject(ProjectInfo.Create(projectId, VersionStamp.Default, "Parts", "Parts", LanguageNames.CSharp,
                compilationOptions: new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary), metadataReferences: References.Value))
            .AddDocument(DocumentId.CreateNewId(projectId), "Parts.cs", SourceText.From(code), filePath: "/parts/Parts.cs");
        var document = solution.Projects.Single().Documents.Single();
        var tree = document.GetSyntaxTreeAsync().GetAwaiter().GetResult()!;
        var errors = document.Project.GetCompilationAsync().GetAwaiter().GetResult()!.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList();
        Assert.True(errors.Count == 0, "the snippet does not compile: " + string.Join("; ", errors.Take(3)));
        var naming = new FixNaming(RenameMode.Keep, suffixConvention: false, new HashSet<string>(), "/parts");
        return (solution, new FixContext(solution, new ChangeSet(), naming, CancellationToken.None), tree);
    }

    internal static T Node<T>(SyntaxTree tree, Func<T, bool> which) where T : SyntaxNode =>
        tree.GetRoot().DescendantNodes().OfType<T>().First(which);

    [Fact]
    public async Task MethodFamily_InterfaceBaseAndOverrides_AllMembersTogether()
    {
        var (solution, context, tree) = Load("""
            public interface IStore { int Load(int id); }
            public abstract class StoreBase : IStore { public abstract int Load(int id); }
            public sealed class Db : StoreBase { public override int Load(int id) => id; }
            public sealed class Memory : IStore { public int Load(int id) => 0; public int Other() => 1; }
            """);
        var model = await context.ModelAsync(tree);
        var db = model.GetDeclaredSymbol(Node<MethodDeclarationSyntax>(tree, m => m.Parent is ClassDeclarationSyntax { Identifier.ValueText: "Db" }))!;

        var family = await MethodFamily.FindAsync(db, solution, CancellationToken.None);

        Assert.Equal(["Db", "IStore", "Memory", "StoreBase"], family.Select(m => m.ContainingType.Name).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task AsyncLambda_ByDelegateType_TaskReturningChangesVoidAndValueRefused()
    {
        var (_, context, tree) = Load("""
            using System;
            using System.Threading.Tasks;
            public static class C
            {
                public static void Take(Func<Task> a, Action b, Func<int> c) { }
                public static void Use() => Take(() => Task.CompletedTask, () => { }, () => 1);
            }
            """);
        var model = await context.ModelAsync(tree);
        var lambdas = tree.GetRoot().DescendantNodes().OfType<ParenthesizedLambdaExpressionSyntax>().ToList();
        var decide = new AsyncLambda(context, []);

        Assert.Null(await decide.DecideAsync(model, lambdas[0]));
        Assert.Contains("async void", await decide.DecideAsync(model, lambdas[1]), StringComparison.Ordinal);
        Assert.Contains("without changing the delegate's type", await decide.DecideAsync(model, lambdas[2]), StringComparison.Ordinal);
        Assert.True(context.Changes.Containers.ContainsKey(lambdas[0]));
        Assert.Equal(1, context.Changes.MethodCount);
    }

    [Fact]
    public async Task CallerUpdate_CallerCannotAwait_WaitsOnTheTaskAndNamesTheBoundary()
    {
        var (_, context, tree) = Load("""
            public sealed class Warmup
            {
                public Warmup() { Value = Read(); }
                public int Value { get; }
                private static int Read() => 1;
            }
            """);
        var model = await context.ModelAsync(tree);
        var call = Node<InvocationExpressionSyntax>(tree, _ => true);
        var callers = new CallerUpdate(context, _ => Task.FromResult<string?>("a constructor cannot be async"));

        await callers.AwaitOrBlockAsync(model, call);

        var boundary = Assert.Single(callers.Boundaries);
        Assert.Equal("Warmup..ctor", boundary.Method);
        Assert.Equal(3, boundary.Line);
        Assert.Equal("a constructor cannot be async", boundary.Reason);
        Assert.True(context.Changes.IsReplaced(call));
    }

    [Fact]
    public async Task LockToSemaphore_PrivateLockEveryUse_ConvertedVisibleLockRefused()
    {
        var (_, context, tree) = Load("""
            public sealed class Ledger
            {
                private readonly object _sync = new();
                protected internal readonly object Shared = new();
                private int _n;
                public int Add() { lock (_sync) { return ++_n; } }
                public int Count() { lock (_sync) { return _n; } }
                public int Read() { lock (Shared) { return _n; } }
            }
            """);
        var asked = new List<SyntaxNode>();
        var reshaped = new List<string>();
        var locks = new LockToSemaphore(context, n => { asked.Add(n); return Task.FromResult<string?>(null); }, reshaped);
        var statements = tree.GetRoot().DescendantNodes().OfType<LockStatementSyntax>().ToList();

        Assert.Null(await locks.ConvertAsync(statements[0]));
        Assert.Contains("is not private", await locks.ConvertAsync(statements[2]), StringComparison.Ordinal);

        Assert.Equal(2, locks.ConvertedLocks.Count);
        Assert.Equal(2, asked.Count);
        Assert.Contains("2 lock statement(s)", Assert.Single(reshaped), StringComparison.Ordinal);
    }

    [Fact]
    public async Task FixContext_TypeName_UsingAddedOnlyWhereNoTypeOfThatNameIsInScope()
    {
        var (_, context, tree) = Load("""
            namespace A { public sealed class Task { } public static class UsesOwnTask { public static void M() { } } }
            namespace B { public static class Plain { public static void M() { } } }
            """);
        var model = await context.ModelAsync(tree);
        var inA = Node<MethodDeclarationSyntax>(tree, m => m.Parent is ClassDeclarationSyntax { Identifier.ValueText: "UsesOwnTask" });
        var inB = Node<MethodDeclarationSyntax>(tree, m => m.Parent is ClassDeclarationSyntax { Identifier.ValueText: "Plain" });

        Assert.Equal("System.Threading.Tasks.Task", context.TaskName(model, inA));
        Assert.Equal("Task", context.TaskName(model, inB));
        var applied = await context.Changes.ApplyAsync(context.Solution, CancellationToken.None);
        var text = (await applied.Projects.Single().Documents.Single().GetTextAsync()).ToString();
        Assert.Contains("using System.Threading.Tasks;", text, StringComparison.Ordinal);
    }
}
