using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Tplab.Blocking;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Fix.Rewrites;

namespace Tplab.Analyzers.CodeFixes;

/// <summary>What becomes async: a method (<see cref="Method"/>) or a lambda (null), and how its signature changes.</summary>
internal sealed record ContainerPlan(IMethodSymbol? Method, bool ChangesReturnType, bool AwaitsReturns, bool HasResult, bool HasCallers);

/// <summary>
/// tplab fix's single-document case, planned for the editor: the site's awaited form by fix's own rewrite class for
/// the catalogue row, then async carried up through the code that holds it — a method made async (<c>T</c> →
/// <c>Task&lt;T&gt;</c>, <c>void</c> → <c>Task</c>) with every call to it awaited, recursively — only while every caller
/// is in the same document. Refused (no code action) wherever fix refuses, and wherever fix would go further than one
/// document or reshape more than a method: a lock or a query around an await (<see cref="AsyncRules"/>), the behaviour
/// checks TPFIX001–003, a method the language or a contract keeps synchronous, a reference that is not a call.
/// </summary>
internal sealed class DocumentAsyncPlan
{
    /// <summary>At most this many methods and lambdas change in one editor fix; beyond it, <c>tplab fix</c> reports the change.</summary>
    internal const int MaxContainers = 25;

    private readonly Document _document;
    private readonly SemanticModel _model;
    private readonly CancellationToken _cancellationToken;
    private readonly Dictionary<SyntaxNode, string?> _decided = [];

    private DocumentAsyncPlan(Document document, SemanticModel model, SyntaxNode site, SiteEdit edit, bool configureAwait, CancellationToken cancellationToken)
    {
        (_document, _model, _cancellationToken) = (document, model, cancellationToken);
        (SiteNode, Site, ConfigureAwait) = (site, edit, configureAwait);
    }

    public SyntaxNode SiteNode { get; }

    /// <summary>The site's semantic model, of the tree every planned node is in.</summary>
    public SemanticModel Model => _model;

    public SiteEdit Site { get; private set; }

    /// <summary><c>.ConfigureAwait(false)</c> on every new await: the file already uses it (fix's rule).</summary>
    public bool ConfigureAwait { get; }

    /// <summary>The calls to a method made async, each awaited (and renamed with it).</summary>
    public Dictionary<InvocationExpressionSyntax, IMethodSymbol> Calls { get; } = [];

    /// <summary>The methods and lambdas made async.</summary>
    public Dictionary<SyntaxNode, ContainerPlan> Containers { get; } = [];

    // Every place that now awaits (the site, each call): where a catch may read the exception's shape.
    private readonly List<SyntaxNode> _points = [];

    /// <summary>The plan, or the refusal when fix would refuse or go beyond this document.</summary>
    public static async Task<(DocumentAsyncPlan? Plan, string? Refusal)> MakeAsync(Document document, SemanticModel model, SyntaxNode site, BlockingCall call, CancellationToken cancellationToken)
    {
        var row = BlockingCallCatalogue.RewriteFor(call);
        ISiteRewrite? rewrite = row.Kind switch
        {
            AsyncRewriteKind.AwaitTask => new AwaitTaskRewrite(),
            AsyncRewriteKind.Delay => new DelayRewrite(),
            _ => null,
        };
        if (rewrite is null)
        {
            return (null, row.Advice ?? $"{row.Kind}: tplab fix --finding ID rewrites it");
        }
        var configureAwait = site.SyntaxTree.GetText(cancellationToken).ToString().Contains(".ConfigureAwait(false)", StringComparison.Ordinal);
        var (edit, refusal) = rewrite.Edit(new RewriteSite(model, site, call, row, configureAwait), null);
        if (edit is null)
        {
            return (null, refusal ?? "no edit");
        }
        var plan = new DocumentAsyncPlan(document, model, site, edit, configureAwait, cancellationToken);
        if (await plan.RequireAwaitAsync(site).ConfigureAwait(false) is { } why)
        {
            return (null, why);
        }
        // The exception an await throws is the inner one: a catch that reads the aggregate keeps it as fix does, or no fix.
        if (ExceptionShape.Changes(model, site, call, cancellationToken) && ExceptionShape.FirstObserver(plan._points, Line) is { } observer)
        {
            if (ExceptionShape.KeepAggregate(site, configureAwait, observer) is not { } keep)
            {
                return (null, ExceptionShape.Refusal(call, observer));
            }
            plan.Site = keep;
        }
        return (plan, null);
    }

    private static string Line(SyntaxNode node) => "line " + (node.GetLocation().GetLineSpan().StartLinePosition.Line + 1).ToString(System.Globalization.CultureInfo.InvariantCulture);

    // Makes the code around node able to await: null when it can (planned), else why not. fix's AsyncPropagation.RequireAwaitAsync, one document.
    private async Task<string?> RequireAwaitAsync(SyntaxNode node)
    {
        var (container, blocker) = AsyncRules.Container(node);
        if (blocker is not null)
        {
            return blocker;
        }
        if (container is null)
        {
            return "it is not inside a method";
        }
        _points.Add(node);
        if ((ThreadAffinity.Region(_model, node, container, _cancellationToken) ?? ThreadIdentity.ReadAfter(_model, node, container, _cancellationToken)) is { } behaviour)
        {
            return behaviour;
        }
        if (_decided.TryGetValue(container, out var known))
        {
            return known;
        }
        _decided[container] = null;
        var reason = await DecideAsync(container).ConfigureAwait(false);
        _decided[container] = reason;
        return reason ?? (Containers.Count > MaxContainers ? $"more than {MaxContainers} methods would change: tplab fix --finding ID" : null);
    }

    private Task<string?> DecideAsync(SyntaxNode container) => container switch
    {
        GlobalStatementSyntax => Task.FromResult<string?>(null),
        AnonymousFunctionExpressionSyntax lambda => Task.FromResult(Lambda(lambda)),
        MethodDeclarationSyntax method => MethodAsync(method),
        LocalFunctionStatementSyntax local when local.Modifiers.Any(SyntaxKind.AsyncKeyword) => Task.FromResult<string?>(null),
        _ => Task.FromResult<string?>($"a {container.Kind()} does not become async in the editor: tplab fix --finding ID says why or carries it"),
    };

    private string? Lambda(AnonymousFunctionExpressionSyntax lambda)
    {
        if (lambda.AsyncKeyword.IsKind(SyntaxKind.AsyncKeyword))
        {
            return null;
        }
        // Task.Run's lambda: fix decides whether the hop goes (TPFIX005); the editor leaves it to fix.
        if (lambda.Parent is ArgumentSyntax { Parent.Parent: InvocationExpressionSyntax outer }
            && _model.GetSymbolInfo(outer, _cancellationToken).Symbol is IMethodSymbol { Name: "Run" or "StartNew" } run
            && run.ContainingType.ToDisplayString() is "System.Threading.Tasks.Task" or "System.Threading.Tasks.TaskFactory")
        {
            return "a Task.Run lambda: tplab fix decides the hop (TPFIX005)";
        }
        var returns = (_model.GetSymbolInfo(lambda, _cancellationToken).Symbol as IMethodSymbol)?.ReturnType;
        var type = _model.GetTypeInfo(lambda, _cancellationToken).ConvertedType?.ToDisplayString();
        if (returns is null || FixTypes.IsTask(returns) || type is not ("System.Delegate" or "System.MulticastDelegate"))
        {
            return $"a lambda passed as {type ?? "?"} keeps its delegate type in the editor";
        }
        Containers[lambda] = new ContainerPlan(null, ChangesReturnType: false, AwaitsReturns: false, HasResult: false, HasCallers: false);
        return null;
    }

    private async Task<string?> MethodAsync(MethodDeclarationSyntax method)
    {
        if (_model.GetDeclaredSymbol(method, _cancellationToken) is not { } symbol)
        {
            return "its symbol is not known";
        }
        if (symbol.IsAsync)
        {
            return null;
        }
        if (FixTypes.IsTask(symbol.ReturnType))
        {
            Containers[method] = new ContainerPlan(symbol, ChangesReturnType: false, AwaitsReturns: true, HasResult: symbol.ReturnType is INamedTypeSymbol { IsGenericType: true }, HasCallers: false);
            return method.Body is null && method.ExpressionBody is null ? "it has no body" : null;
        }
        if ((ThreadIdentity.SetsContext(_model, method, _cancellationToken) ?? AsyncRules.Cannot(symbol, method)) is { } cannot)
        {
            return cannot;
        }
        // A signature bound to another declaration (an override, an interface's member) changes with its family: fix's work.
        if (symbol.IsVirtual || symbol.IsAbstract || symbol.IsOverride || symbol.ExplicitInterfaceImplementations.Length > 0
            || symbol.ContainingType.AllInterfaces.SelectMany(i => i.GetMembers(symbol.Name)).Any(m => SymbolEqualityComparer.Default.Equals(symbol.ContainingType.FindImplementationForInterfaceMember(m), symbol)))
        {
            return $"{symbol.Name} overrides or implements another declaration: tplab fix --finding ID changes the family";
        }
        var calls = new List<InvocationExpressionSyntax>();
        var root = await _document.GetSyntaxRootAsync(_cancellationToken).ConfigureAwait(false);
        foreach (var reference in await SymbolFinder.FindReferencesAsync(symbol, _document.Project.Solution, _cancellationToken).ConfigureAwait(false))
        {
            foreach (var location in reference.Locations.Where(l => !l.IsImplicit))
            {
                if (location.Document.Id != _document.Id)
                {
                    return $"{symbol.Name} is called from {location.Document.Name}: tplab fix --finding ID changes every file";
                }
                if (Call(root!.FindNode(location.Location.SourceSpan, getInnermostNodeForTie: true)) is not { } call)
                {
                    return $"{symbol.Name} is used other than by a call (a method group, nameof, a cref) at {Line(location.Location.SourceTree!.GetRoot(_cancellationToken).FindNode(location.Location.SourceSpan))}";
                }
                calls.Add(call);
            }
        }
        Containers[method] = new ContainerPlan(symbol, ChangesReturnType: true, AwaitsReturns: false, HasResult: false, HasCallers: calls.Count > 0);
        foreach (var call in calls)
        {
            Calls[call] = symbol;
            if (await RequireAwaitAsync(call).ConfigureAwait(false) is { } why)
            {
                return $"its caller at {Line(call)} cannot await: {why}";
            }
        }
        return null;
    }

    // The invocation a reference names: M(…), x.M(…), M<T>(…); null for a method group, nameof, a cref, x?.M(…).
    private static InvocationExpressionSyntax? Call(SyntaxNode reference)
    {
        if (reference is not SimpleNameSyntax name)
        {
            return null;
        }
        var callee = name.Parent is MemberAccessExpressionSyntax access && access.Name == name ? access : (ExpressionSyntax)name;
        return callee.Parent is InvocationExpressionSyntax invocation && invocation.Expression == callee ? invocation : null;
    }
}
