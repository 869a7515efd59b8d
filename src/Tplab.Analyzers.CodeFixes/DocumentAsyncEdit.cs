using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix;
using Tplab.Scan.Fix.Editing;
using Tplab.Scan.Rules;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace Tplab.Analyzers.CodeFixes;

/// <summary>
/// A <see cref="DocumentAsyncPlan"/> written into its document with fix's own syntax (<see cref="AsyncSyntax"/>: no
/// formatter, the trivia around every edit kept) and fix's names (<see cref="FixNaming"/>: the <c>Async</c> suffix when
/// the solution's task-returning methods mostly have it, never on a method nothing in source calls — an entry point).
/// </summary>
internal static class DocumentAsyncEdit
{
    public static async Task<Document> ApplyAsync(Document document, DocumentAsyncPlan plan, CancellationToken cancellationToken)
    {
        // The plan's own tree: its nodes are replaced by identity.
        var root = (CompilationUnitSyntax)await plan.SiteNode.SyntaxTree.GetRootAsync(cancellationToken).ConfigureAwait(false);
        var names = await NamesAsync(document, plan, cancellationToken).ConfigureAwait(false);
        var usings = plan.Site.Usings.ToList();
        var task = plan.Containers.Values.Any(c => c.ChangesReturnType) ? TaskName(plan.Model, plan.SiteNode.SpanStart, usings) : "Task";
        var nodes = new List<SyntaxNode> { plan.SiteNode };
        nodes.AddRange(plan.Calls.Keys);
        nodes.AddRange(plan.Containers.Keys);
        var edited = root.ReplaceNodes(nodes, (original, current) =>
        {
            if (original == plan.SiteNode)
            {
                return plan.Site.Replace(current);
            }
            if (original is InvocationExpressionSyntax call && plan.Calls.TryGetValue(call, out var callee))
            {
                return AsyncSyntax.Await(Renamed((InvocationExpressionSyntax)current, names.TryGetValue(callee, out var name) ? name : null), original, plan.ConfigureAwait);
            }
            return Container(current, plan.Containers[original], names, task, plan.ConfigureAwait);
        });
        foreach (var ns in usings.Distinct(StringComparer.Ordinal))
        {
            edited = AsyncSyntax.AddUsing(edited, ns);
        }
        return document.WithSyntaxRoot(edited);
    }

    private static SyntaxNode Container(SyntaxNode current, ContainerPlan plan, Dictionary<IMethodSymbol, string> names, string task, bool configureAwait)
    {
        if (current is AnonymousFunctionExpressionSyntax lambda)
        {
            var async = Token(SyntaxKind.AsyncKeyword).WithLeadingTrivia(lambda.GetLeadingTrivia()).WithTrailingTrivia(Space);
            return lambda.WithoutLeadingTrivia().WithAsyncKeyword(async);
        }
        var method = (MethodDeclarationSyntax)current;
        if (plan.AwaitsReturns)
        {
            method = (MethodDeclarationSyntax)TaskReturns.AwaitReturns(method, plan.HasResult, configureAwait, task);
        }
        var (modifiers, returnType) = AsyncSyntax.AddAsync(method.Modifiers, method.ReturnType);
        method = method.WithModifiers(modifiers).WithReturnType(plan.ChangesReturnType ? AsyncSyntax.TaskOf(returnType, task) : returnType);
        return plan.Method is { } symbol && names.TryGetValue(symbol, out var name) ? method.WithIdentifier(Identifier(name).WithTriviaFrom(method.Identifier)) : method;
    }

    private static InvocationExpressionSyntax Renamed(InvocationExpressionSyntax call, string? name) => name is null ? call : call.Expression switch
    {
        SimpleNameSyntax simple => call.WithExpression(Renamed(simple, name)),
        MemberAccessExpressionSyntax access => call.WithExpression(access.WithName(Renamed(access.Name, name))),
        _ => call,
    };

    private static SimpleNameSyntax Renamed(SimpleNameSyntax simple, string name) => simple switch
    {
        GenericNameSyntax generic => generic.WithIdentifier(Identifier(name).WithTriviaFrom(generic.Identifier)),
        _ => IdentifierName(Identifier(name).WithTriviaFrom(simple.Identifier)).WithTriviaFrom(simple),
    };

    // The new names: fix's FixNaming over the solution's convention; the methods no source calls are its entry points.
    private static async Task<Dictionary<IMethodSymbol, string>> NamesAsync(Document document, DocumentAsyncPlan plan, CancellationToken cancellationToken)
    {
        var names = new Dictionary<IMethodSymbol, string>(SymbolEqualityComparer.Default);
        var changed = plan.Containers.Values.Where(c => c.ChangesReturnType && c.Method is not null).Select(c => c.Method!).ToList();
        if (changed.Count == 0)
        {
            return names;
        }
        var convention = await FixNaming.ConventionAsync(document.Project.Solution, cancellationToken).ConfigureAwait(false);
        var roots = plan.Containers.Values.Where(c => c.Method is not null && !c.HasCallers).Select(c => SymbolNames.Key(c.Method!));
        var naming = new FixNaming(RenameMode.Auto, convention, new ReadOnlySet<string>(roots, StringComparer.Ordinal), "/");
        foreach (var method in changed)
        {
            if (naming.NewName([method]) is { } name)
            {
                names[method] = name;
            }
        }
        return names;
    }

    // Task where the file sees System.Threading.Tasks.Task by it, with the using added when no type of that name is in scope (fix's FixContext.TypeName).
    private static string TaskName(SemanticModel model, int position, List<string> usings)
    {
        var named = model.LookupNamespacesAndTypes(position, name: "Task");
        if (named.Any(s => s.ToDisplayString() == "System.Threading.Tasks.Task"))
        {
            return "Task";
        }
        if (named.IsEmpty)
        {
            usings.Add("System.Threading.Tasks");
            return "Task";
        }
        return "System.Threading.Tasks.Task";
    }
}
