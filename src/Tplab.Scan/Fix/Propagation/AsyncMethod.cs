using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Propagation;

/// <summary>
/// A method or local function made async: <c>T</c> → <c>Task&lt;T&gt;</c>, <c>void</c> → <c>Task</c> (a method already
/// returning a task only gains <c>async</c>), with its whole <see cref="MethodFamily"/> renamed together, and every
/// reference in the solution handed to <paramref name="callers"/>. Refused, with the reason, where the signature cannot
/// change: a member of a package's type, generated code, a method group passed as a delegate that returns no task, a
/// method the language does not let be async (<see cref="AsyncRules"/>). A synchronous MVC filter switches to its async
/// twin through <paramref name="filters"/>. Each family member is reported to <paramref name="decided"/> before the
/// callers are visited, so a recursive call finds it settled.
/// </summary>
internal sealed class AsyncMethod(FixContext context, CallerUpdate callers, FilterReshape filters, Action<SyntaxNode> decided)
{
    public async Task<string?> LocalFunctionAsync(SemanticModel model, LocalFunctionStatementSyntax local)
    {
        if (model.GetDeclaredSymbol(local, context.CancellationToken) is not IMethodSymbol symbol)
        {
            return FixReasons.CannotBeAsync.Say("its symbol is not known");
        }
        if (symbol.IsAsync)
        {
            return null;
        }
        if (AsyncRules.Cannot(symbol, local) is { } why)
        {
            return FixReasons.CannotBeAsync.Say(why);
        }
        var returnsTask = FixTypes.IsTask(symbol.ReturnType);
        context.Changes.Containers[local] = new ContainerChange
        {
            AwaitsReturns = returnsTask,
            HasResult = returnsTask && symbol.ReturnType is INamedTypeSymbol { IsGenericType: true },
            ChangesReturnType = !returnsTask,
            Task = context.TaskName(model, local),
        };
        if (returnsTask)
        {
            return null;
        }
        var scope = local.Parent!;
        foreach (var call in scope.DescendantNodes().OfType<InvocationExpressionSyntax>()
            .Where(i => SymbolEqualityComparer.Default.Equals(model.GetSymbolInfo(i, context.CancellationToken).Symbol, symbol)).ToList())
        {
            await callers.AwaitOrBlockAsync(model, call).ConfigureAwait(false);
        }
        return null;
    }

    public async Task<string?> MethodAsync(SemanticModel model, MethodDeclarationSyntax method)
    {
        if (model.GetDeclaredSymbol(method, context.CancellationToken) is not { } symbol)
        {
            return FixReasons.CannotBeAsync.Say("its symbol is not known");
        }
        if (symbol.IsAsync)
        {
            return null;
        }
        if (FixTypes.IsTask(symbol.ReturnType))
        {
            if (method.Body is null && method.ExpressionBody is null)
            {
                return FixReasons.CannotBeAsync.Say("it has no body");
            }
            context.Changes.Containers[method] = new ContainerChange { AwaitsReturns = true, HasResult = symbol.ReturnType is INamedTypeSymbol { IsGenericType: true } };
            return null;
        }
        if (AsyncRules.Cannot(symbol, method) is { } why)
        {
            return FixReasons.CannotBeAsync.Say(why);
        }
        var family = await MethodFamily.FindAsync(symbol, context.Solution, context.CancellationToken).ConfigureAwait(false);
        if (family.FirstOrDefault(m => m.DeclaringSyntaxReferences.Any(r => FixContext.IsGenerated(r.SyntaxTree))) is { } generated)
        {
            return FixReasons.GeneratedCode.Say($"{generated.ContainingType?.Name}.{generated.Name} is declared in generated code ({context.Naming.Relative(generated.DeclaringSyntaxReferences[0].SyntaxTree.FilePath)}): change its source (the .proto, the generator's input) instead");
        }
        // A synchronous MVC filter's method: the class implements the async twin instead, so the package's interface no longer binds it.
        var filter = MvcFilter.For(symbol, family);
        if (filter is not null)
        {
            family = [symbol];
        }
        if (family.FirstOrDefault(m => m.Locations.Any(l => l.IsInMetadata) || m.DeclaringSyntaxReferences.Length == 0) is { } outside)
        {
            return FixReasons.SignatureFixed.Say($"it implements or overrides {outside.ContainingType?.Name}.{outside.Name} from {outside.ContainingAssembly?.Name ?? "a package"}, whose signature cannot change");
        }
        if (filter is { } cannotBe && await filters.BlockerAsync(model, method, symbol, cannotBe.Filter).ConfigureAwait(false) is { } notFilter)
        {
            return FixReasons.SignatureFixed.Say(notFilter);
        }
        var newName = context.Naming.NewName(family);
        var declarations = new List<(IMethodSymbol Symbol, SyntaxNode Syntax)>();
        foreach (var member in family)
        {
            var syntax = await member.DeclaringSyntaxReferences[0].GetSyntaxAsync(context.CancellationToken).ConfigureAwait(false);
            if (syntax is not MethodDeclarationSyntax declaration || (!SymbolEqualityComparer.Default.Equals(member, symbol) && AsyncRules.Cannot(member, declaration) is not null))
            {
                return FixReasons.SignatureFixed.Say($"{member.ContainingType?.Name}.{member.Name} cannot change with it: {AsyncRules.Cannot(member, syntax) ?? "it is not a method declaration"}");
            }
            declarations.Add((member, declaration));
        }
        // Every reference first: a method passed as a delegate that returns no task (a TimerCallback, an Action) cannot change.
        var locations = new List<Location>();
        foreach (var (member, _) in declarations)
        {
            var references = await SymbolFinder.FindReferencesAsync(member, context.Solution, context.CancellationToken).ConfigureAwait(false);
            locations.AddRange(references.Where(r => SymbolEqualityComparer.Default.Equals(r.Definition, member) || family.Contains(r.Definition, SymbolEqualityComparer.Default))
                .SelectMany(r => r.Locations).Where(l => !l.IsImplicit).Select(l => l.Location));
        }
        locations = [.. locations.Distinct()];
        // The bound before the work: every caller would become a method to change (with its own callers after it), and
        // visiting thousands of them builds a semantic model per file first.
        var callerCount = locations.Select(l => l.SourceTree is { } t ? AsyncRules.Container(t.GetRoot(context.CancellationToken).FindNode(l.SourceSpan, getInnermostNodeForTie: true)).Container : null)
            .OfType<SyntaxNode>().Where(c => !context.Changes.Containers.ContainsKey(c)).Distinct().Count();
        if (context.Changes.MethodCount + declarations.Count + callerCount > context.MaxMethods)
        {
            throw new FixTooWideException(FixTooWideException.Say(context.MaxMethods, $"{symbol.ContainingType?.Name}.{symbol.Name} alone has {callerCount} caller(s)"));
        }
        foreach (var location in locations)
        {
            if (location.SourceTree is { } t && (context.Solution.GetDocument(t) is null || FixContext.IsGenerated(t)))
            {
                return FixReasons.GeneratedCode.Say($"it is called from generated code ({context.Naming.Relative(t.FilePath)}: a Razor view or a source generator's output), which tplab does not edit");
            }
            if (await callers.DelegateUseAsync(location).ConfigureAwait(false) is { } use)
            {
                return use;
            }
        }
        var addToken = context.AddCancellation && TokenCanBeAdded(declarations, family);
        foreach (var (member, declaration) in declarations)
        {
            var memberModel = await context.ModelAsync(declaration.SyntaxTree).ConfigureAwait(false);
            var body = (SyntaxNode?)((MethodDeclarationSyntax)declaration).Body;
            context.Changes.Containers[declaration] = new ContainerChange
            {
                ChangesReturnType = true,
                NewName = newName,
                Task = context.TaskName(memberModel, declaration),
                EndReachable = body is BlockSyntax { Statements.Count: > 0 } b
                    ? memberModel.AnalyzeControlFlow(b.Statements[0], b.Statements[^1]) is { Succeeded: true } flow && flow.EndPointIsReachable
                    : body is BlockSyntax,
                AddToken = addToken ? context.TypeName(memberModel, declaration, "CancellationToken", "System.Threading") : null,
            };
            decided(declaration);
        }
        if (filter is { } f)
        {
            filters.Reshape(model, (ClassDeclarationSyntax)method.Parent!, symbol, f.Filter, newName);
        }
        foreach (var location in locations)
        {
            await callers.ReferenceAsync(location, newName, addToken).ConfigureAwait(false);
        }
        return null;
    }

    // --add-cancellation: every member of the family takes the parameter, or none does. Not on an endpoint (a route's,
    // hub's or middleware's signature is bound by ASP.NET Core), nor where a token, a params array or the name is there already.
    private bool TokenCanBeAdded(List<(IMethodSymbol Symbol, SyntaxNode Syntax)> declarations, List<IMethodSymbol> family) =>
        !context.Naming.IsEndpoint(family)
        && declarations.All(d => !d.Symbol.Parameters.Any(p => p.IsParams || p.Type.ToDisplayString() == "System.Threading.CancellationToken")
            && !d.Syntax.DescendantTokens().Any(t => t.IsKind(SyntaxKind.IdentifierToken) && t.ValueText == FixContext.TokenParameter));
}
