using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Fix;

/// <summary>
/// Carries async up from an await: the method that holds it becomes async (with its interface, base and every
/// implementation and override in the solution, renamed together), and every call of a method whose return type
/// changed is awaited, in every caller of the solution, recursively. A caller that cannot be async (a constructor, an
/// accessor, an operator, a lambda whose delegate returns no task, a method implementing a package's interface, Main)
/// waits on the task instead (<c>.GetAwaiter().GetResult()</c>) and is named as a boundary.
/// </summary>
internal sealed partial class AsyncPropagation(Solution solution, ChangeSet changes, FixNaming naming, int maxMethods, CancellationToken cancellationToken)
{
    private readonly Dictionary<SyntaxNode, string?> _decided = [];
    private readonly Dictionary<SyntaxTree, SemanticModel> _models = [];

    public List<Boundary> Boundaries { get; } = [];

    /// <summary>Places the compiler may reject that no edit covers (a changed method passed as a delegate).</summary>
    public List<string> Notes { get; } = [];

    /// <summary>Makes the code around <paramref name="node"/> able to await; null when it can, else why not.</summary>
    public async Task<string?> RequireAwaitAsync(SyntaxNode node)
    {
        var (container, blocker) = AsyncRules.Container(node);
        if (blocker is not null)
        {
            // A lock body cannot hold an await: the lock becomes a SemaphoreSlim where every use of it can change too.
            if (container is not LockStatementSyntax l)
            {
                return blocker;
            }
            return await LockToSemaphoreAsync(l).ConfigureAwait(false) is { } why
                ? $"it is inside lock ({l.Expression}), where await is not allowed (CS1996), and the lock cannot become a SemaphoreSlim(1, 1): {why}"
                : await RequireAwaitAsync(l).ConfigureAwait(false);
        }
        if (container is null)
        {
            return "it is not inside a method";
        }
        if (_decided.TryGetValue(container, out var known))
        {
            if (known is null && changes.Containers.TryGetValue(container, out var existing))
            {
                existing.Awaits = true;
            }
            return known;
        }
        _decided[container] = null;
        var reason = await DecideAsync(container).ConfigureAwait(false);
        _decided[container] = reason;
        if (reason is null && changes.Containers.TryGetValue(container, out var change))
        {
            change.Awaits = true;
        }
        if (changes.MethodCount > maxMethods)
        {
            throw new FixTooWideException($"the change reaches more than {maxMethods} methods: fix the chain by hand, or select fewer findings");
        }
        return reason;
    }

    private async Task<string?> DecideAsync(SyntaxNode container)
    {
        var model = await ModelAsync(container.SyntaxTree).ConfigureAwait(false);
        switch (container)
        {
            case GlobalStatementSyntax:
                return null;
            case AnonymousFunctionExpressionSyntax lambda:
                return Lambda(model, lambda);
            case LocalFunctionStatementSyntax local:
                return await LocalFunctionAsync(model, local).ConfigureAwait(false);
            case MethodDeclarationSyntax method:
                return await MethodAsync(model, method).ConfigureAwait(false);
            case ConstructorDeclarationSyntax:
                return "a constructor cannot be async: build the value in an async factory method or initialise it at startup";
            case AccessorDeclarationSyntax or ArrowExpressionClauseSyntax:
                return "a property accessor cannot be async: turn the property into an async method";
            case OperatorDeclarationSyntax or ConversionOperatorDeclarationSyntax:
                return "an operator cannot be async";
            case DestructorDeclarationSyntax:
                return "a finalizer cannot be async";
            default:
                return "a field initialiser cannot await: initialise it in an async method";
        }
    }

    private string? Lambda(SemanticModel model, AnonymousFunctionExpressionSyntax lambda)
    {
        if (lambda.AsyncKeyword.IsKind(SyntaxKind.AsyncKeyword))
        {
            return null;
        }
        var delegateType = model.GetTypeInfo(lambda, cancellationToken).ConvertedType as INamedTypeSymbol;
        var symbol = model.GetSymbolInfo(lambda, cancellationToken).Symbol as IMethodSymbol;
        var returnsTask = symbol is not null && FixTypes.IsTask(symbol.ReturnType);
        // await Task.Run(() => Blocking()) → await BlockingAsync(): the hop saves nothing once the call is awaited.
        if (TaskRunUnwrap(model, lambda) is { } run)
        {
            changes.Replace(run, n => ((InvocationExpressionSyntax)n).ArgumentList.Arguments[0].Expression is AnonymousFunctionExpressionSyntax { ExpressionBody: AwaitExpressionSyntax a }
                ? a.Expression.WithTriviaFrom(n) : n);
            return null;
        }
        var ok = delegateType is null
            || delegateType.ToDisplayString() is "System.Delegate" or "System.MulticastDelegate"
            || (delegateType.DelegateInvokeMethod is { } invoke && FixTypes.IsTask(invoke.ReturnType))
            || IsTaskRunArgument(model, lambda);
        if (!ok)
        {
            return delegateType!.DelegateInvokeMethod is { ReturnsVoid: true }
                ? $"a lambda passed as {delegateType.ToDisplayString()} would become async void: the caller could not wait for it"
                : $"a lambda passed as {delegateType.ToDisplayString()} cannot become async without changing the delegate's type";
        }
        changes.Containers[lambda] = new ContainerChange { AwaitsReturns = returnsTask, HasResult = returnsTask && symbol!.ReturnType is INamedTypeSymbol { IsGenericType: true } };
        return null;
    }

    private static InvocationExpressionSyntax? TaskRunUnwrap(SemanticModel model, AnonymousFunctionExpressionSyntax lambda) =>
        lambda.ExpressionBody is not null && lambda.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Arguments.Count: 1, Parent: InvocationExpressionSyntax run } }
            && run.Parent is AwaitExpressionSyntax && IsTaskRunArgument(model, lambda) && lambda is ParenthesizedLambdaExpressionSyntax { ParameterList.Parameters.Count: 0 }
            ? run : null;

    private static bool IsTaskRunArgument(SemanticModel model, AnonymousFunctionExpressionSyntax lambda) =>
        lambda.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax run } }
        && model.GetSymbolInfo(run).Symbol is IMethodSymbol { Name: "Run" } m && m.ContainingType.ToDisplayString() == "System.Threading.Tasks.Task";

    private async Task AwaitOrBlockAsync(SemanticModel model, InvocationExpressionSyntax call)
    {
        if (changes.IsReplaced(call))
        {
            return;
        }
        var why = await RequireAwaitAsync(call).ConfigureAwait(false);
        var configure = changes.ConfigureAwait(call.SyntaxTree);
        if (why is null)
        {
            changes.Replace(call, n => AsyncSyntax.Await((ExpressionSyntax)n, call, configure));
            return;
        }
        changes.Replace(call, n => AsyncSyntax.Block((ExpressionSyntax)n));
        var caller = model.GetEnclosingSymbol(call.SpanStart, cancellationToken);
        while (caller is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction or MethodKind.LocalFunction } && caller.ContainingSymbol is { } outer)
        {
            caller = outer;
        }
        var (type, name) = caller is IMethodSymbol cm ? SymbolNames.UserMethod(cm) : (caller?.ContainingType?.ToDisplayString() ?? "", caller?.Name ?? "?");
        var display = $"{type[(type.LastIndexOf('.') + 1)..]}.{name}";
        Boundaries.Add(new Boundary(display, type + "." + name, RelativePath(call), call.GetLocation().GetLineSpan().StartLinePosition.Line + 1, why));
    }

    private async Task<SemanticModel> ModelAsync(SyntaxTree tree)
    {
        if (!_models.TryGetValue(tree, out var model))
        {
            var document = solution.GetDocument(tree) ?? throw new InvalidOperationException("a tree outside the solution");
            model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false) ?? throw new InvalidOperationException("no semantic model");
            _models[tree] = model;
        }
        return model;
    }

    private string TaskName(SemanticModel model, SyntaxNode at)
    {
        var named = model.LookupNamespacesAndTypes(at.SpanStart, name: "Task");
        if (named.Any(s => s.ToDisplayString() == "System.Threading.Tasks.Task"))
        {
            return "Task";
        }
        if (named.IsEmpty)
        {
            changes.Using(at.SyntaxTree, "System.Threading.Tasks");
            return "Task";
        }
        return "System.Threading.Tasks.Task";
    }

    private string Where(SyntaxNode node) => $"{RelativePath(node)}:{node.GetLocation().GetLineSpan().StartLinePosition.Line + 1}";

    private string RelativePath(SyntaxNode node) => naming.Relative(node.SyntaxTree.FilePath);
}
