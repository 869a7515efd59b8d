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
    /// own methods, followed to any depth — a method that takes it.
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
        var followed = 0;
        foreach (var hold in holds)
        {
            // Breadth first from the region: each call's method, then the calls in its body, until a holder or the end.
            var queue = new Queue<(SyntaxNode Body, InvocationExpressionSyntax? Via)>([(hold.Region, null)]);
            while (queue.Count > 0)
            {
                var (body, via) = queue.Dequeue();
                var model = await context.ModelAsync(body.SyntaxTree).ConfigureAwait(false);
                foreach (var call in body.DescendantNodesAndSelf().OfType<InvocationExpressionSyntax>())
                {
                    if (model.GetSymbolInfo(call, context.CancellationToken).Symbol is not IMethodSymbol called)
                    {
                        continue;
                    }
                    var reached = via ?? call;
                    if (holders.Contains(called.OriginalDefinition))
                    {
                        return $"{gate} is taken again through {reached.Expression} inside it at {context.Where(reached)}{(via is null ? "" : $" (which calls {called.Name})")}: a SemaphoreSlim is not re-entrant";
                    }
                    if (!walked.Add(called.OriginalDefinition))
                    {
                        continue;
                    }
                    foreach (var reference in called.OriginalDefinition.DeclaringSyntaxReferences)
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
        return null;
    }

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
