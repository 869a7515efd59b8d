using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Tplab.Scan.Fix.Editing;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace Tplab.Scan.Fix.Propagation;

/// <summary>
/// What every conversion of a private gate into a <c>SemaphoreSlim(1, 1)</c> shares, whatever the gate was (a
/// <c>lock</c> object, <see cref="LockToSemaphore"/>; a <c>Mutex</c>, <see cref="MutexToSemaphore"/>): the field's
/// uses, the re-entry check (a semaphore is not re-entrant, a lock and a mutex are for their owner thread) and the
/// field declared anew.
/// </summary>
internal static class SemaphoreGate
{
    // How many methods the re-entry walk follows from one gate's regions before it gives up and refuses.
    private const int MostMethodsWalked = 256;

    /// <summary>One place the gate is taken: the wait (a lock statement, a WaitOne call) and the region it holds the gate over.</summary>
    internal sealed record Hold(SyntaxNode Wait, SyntaxNode Region);

    /// <summary>Every reference to <paramref name="field"/>, the member access <c>this.f</c> taken whole.</summary>
    public static async Task<List<SyntaxNode>> UsesAsync(FixContext context, IFieldSymbol field)
    {
        var uses = new List<SyntaxNode>();
        foreach (var location in (await SymbolFinder.FindReferencesAsync(field, context.Solution, context.CancellationToken).ConfigureAwait(false)).SelectMany(r => r.Locations).Select(l => l.Location))
        {
            var root = await location.SourceTree!.GetRootAsync(context.CancellationToken).ConfigureAwait(false);
            var used = root.FindNode(location.SourceSpan, getInnermostNodeForTie: true);
            uses.Add(used.Parent is MemberAccessExpressionSyntax ma && ma.Name == used ? ma : used);
        }
        return uses;
    }

    /// <summary>
    /// Why a region could take the gate again (<paramref name="gate"/> names it: "the lock on Ledger._sync"), else null:
    /// a wait on it inside another's region, or a call from a region that reaches — directly or through the solution's
    /// own methods, followed to any depth, through an interface or virtual member of the solution's to each of its
    /// implementations — a method that takes it; or a delegate invoked in a region (its target is not known).
    /// </summary>
    public static async Task<string?> ReentryAsync(FixContext context, string gate, IReadOnlyList<Hold> holds)
    {
        var holders = new HashSet<IMethodSymbol>(SymbolEqualityComparer.Default);
        foreach (var hold in holds)
        {
            if (holds.FirstOrDefault(h => h != hold && hold.Region.Span.Contains(h.Wait.Span) && h.Wait.SyntaxTree == hold.Region.SyntaxTree) is { } inner)
            {
                return $"{gate} is taken again inside itself at {context.Where(inner.Wait)}: a SemaphoreSlim is not re-entrant";
            }
            var model = await context.ModelAsync(hold.Wait.SyntaxTree).ConfigureAwait(false);
            if (model.GetEnclosingSymbol(hold.Wait.SpanStart, context.CancellationToken) is IMethodSymbol holder)
            {
                holders.Add(holder.OriginalDefinition);
            }
        }
        var walked = new HashSet<IMethodSymbol>(SymbolEqualityComparer.Default);
        // Each method's targets once: the solution-wide searches for implementations and overrides are the walk's cost.
        var targetsOf = new Dictionary<IMethodSymbol, IReadOnlyList<IMethodSymbol>>(SymbolEqualityComparer.Default);
        var followed = 0;
        foreach (var hold in holds)
        {
            // Breadth first from the region: each call's method, then the calls in its body, until a holder or the end.
            var queue = new Queue<(SyntaxNode Body, ExpressionSyntax? Via)>([(hold.Region, null)]);
            while (queue.Count > 0)
            {
                var (body, via) = queue.Dequeue();
                var model = await context.ModelAsync(body.SyntaxTree).ConfigureAwait(false);
                foreach (var (at, called) in Calls(model, body, context.CancellationToken))
                {
                    var reached = via ?? at;
                    if (called.MethodKind == MethodKind.DelegateInvoke)
                    {
                        return $"the region of {gate} calls a delegate ({Shown(at)}) at {context.Where(at)}, code tplab cannot follow that may take it again (a SemaphoreSlim is not re-entrant)";
                    }
                    // A call through an interface or a virtual member runs whichever of the solution's implementations the object has.
                    if (!targetsOf.TryGetValue(called.OriginalDefinition, out var targets))
                    {
                        targetsOf[called.OriginalDefinition] = targets = await TargetsAsync(context, called).ConfigureAwait(false);
                    }
                    foreach (var target in targets)
                    {
                        if (holders.Contains(target))
                        {
                            return $"{gate} is taken again through {Shown(reached)} inside it at {context.Where(reached)}{(via is null && SymbolEqualityComparer.Default.Equals(target, called.OriginalDefinition) ? "" : $" (which calls {Named(target, called)})")}: a SemaphoreSlim is not re-entrant";
                        }
                        if (!walked.Add(target))
                        {
                            continue;
                        }
                        foreach (var reference in target.DeclaringSyntaxReferences)
                        {
                            var declaration = await reference.GetSyntaxAsync(context.CancellationToken).ConfigureAwait(false);
                            if (context.Solution.GetDocument(declaration.SyntaxTree) is null)
                            {
                                continue;
                            }
                            if (++followed > MostMethodsWalked)
                            {
                                return $"the region of {gate} calls more than {MostMethodsWalked} of the solution's methods, too many to tell whether one takes it again (a SemaphoreSlim is not re-entrant)";
                            }
                            queue.Enqueue((declaration, reached));
                        }
                    }
                }
            }
        }
        return null;
    }

    // The methods a body calls, where: each method it names (a call or a method group passed on), each delegate it
    // invokes, each constructor, and both accessors of each property it reads or writes.
    private static IEnumerable<(ExpressionSyntax At, IMethodSymbol Called)> Calls(SemanticModel model, SyntaxNode body, CancellationToken cancellationToken)
    {
        foreach (var node in body.DescendantNodesAndSelf())
        {
            var symbol = node is InvocationExpressionSyntax or BaseObjectCreationExpressionSyntax or SimpleNameSyntax ? model.GetSymbolInfo(node, cancellationToken).Symbol : null;
            switch (node, symbol)
            {
                case (InvocationExpressionSyntax invocation, IMethodSymbol { MethodKind: MethodKind.DelegateInvoke } invoke):
                    yield return (invocation, invoke);
                    break;
                case (BaseObjectCreationExpressionSyntax creation, IMethodSymbol constructor):
                    yield return (creation, constructor);
                    break;
                case (SimpleNameSyntax name, IMethodSymbol { MethodKind: not MethodKind.DelegateInvoke } method):
                    yield return (name, method);
                    break;
                case (SimpleNameSyntax name, IPropertySymbol property):
                    foreach (var accessor in new[] { property.GetMethod, property.SetMethod })
                    {
                        if (accessor is not null)
                        {
                            yield return (name, accessor);
                        }
                    }
                    break;
            }
        }
    }

    // The method itself, and where it is the solution's own interface member or can be overridden, every implementation
    // and override the solution declares. (A library's virtual, ToString or IDisposable.Dispose, is not expanded: every
    // class of the solution would be walked for a call the region makes on a value tplab knows.)
    private static async Task<IReadOnlyList<IMethodSymbol>> TargetsAsync(FixContext context, IMethodSymbol called)
    {
        var method = called.OriginalDefinition;
        var targets = new List<IMethodSymbol> { method };
        if (!method.DeclaringSyntaxReferences.Any(r => context.Solution.GetDocument(r.SyntaxTree) is not null))
        {
            return targets;
        }
        if (method.ContainingType.TypeKind == TypeKind.Interface)
        {
            targets.AddRange((await SymbolFinder.FindImplementationsAsync(method, context.Solution, cancellationToken: context.CancellationToken).ConfigureAwait(false)).OfType<IMethodSymbol>());
        }
        else if (method.IsVirtual || method.IsAbstract || method.IsOverride)
        {
            targets.AddRange((await SymbolFinder.FindOverridesAsync(method, context.Solution, cancellationToken: context.CancellationToken).ConfigureAwait(false)).OfType<IMethodSymbol>());
        }
        return [.. targets.Select(t => t.OriginalDefinition).Distinct<IMethodSymbol>(SymbolEqualityComparer.Default)];
    }

    // The method reached: its name, with its type's when the call dispatched to it through an interface or a base.
    private static string Named(IMethodSymbol target, IMethodSymbol called) =>
        SymbolEqualityComparer.Default.Equals(target, called.OriginalDefinition) ? target.Name : $"{target.ContainingType.Name}.{target.Name}";

    private static string Shown(ExpressionSyntax at) => at switch
    {
        InvocationExpressionSyntax invocation => invocation.Expression.ToString(),
        BaseObjectCreationExpressionSyntax creation => creation is ObjectCreationExpressionSyntax o ? "new " + o.Type : "new()",
        _ => at.ToString(),
    };

    /// <summary>The field declared anew as <c>SemaphoreSlim name = new(1, 1)</c> (or <c>new SemaphoreSlim(1, 1)</c> as the file wrote its creation).</summary>
    public static async Task DeclareAsync(FixContext context, FieldDeclarationSyntax declaration)
    {
        var model = await context.ModelAsync(declaration.SyntaxTree).ConfigureAwait(false);
        var semaphore = context.TypeName(model, declaration, "SemaphoreSlim", "System.Threading");
        context.Changes.Replace(declaration, n =>
        {
            var d = (FieldDeclarationSyntax)n;
            var v = d.Declaration.Variables[0];
            var create = v.Initializer!.Value is ImplicitObjectCreationExpressionSyntax ? "new(1, 1)" : $"new {semaphore}(1, 1)";
            return d.WithDeclaration(d.Declaration
                .WithType(ParseTypeName(semaphore).WithTriviaFrom(d.Declaration.Type))
                .WithVariables(SingletonSeparatedList(v.WithInitializer(v.Initializer.WithValue(ParseExpression(create).WithTriviaFrom(v.Initializer.Value))))));
        });
    }
}
