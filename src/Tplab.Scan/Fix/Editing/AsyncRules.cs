using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Tplab.Scan.Fix.Editing;

/// <summary>A caller that cannot become async: it now waits on the task where it called the method, and why it must.</summary>
internal sealed record Boundary(string Method, string UserMethod, string File, int Line, string Reason)
{
    public override string ToString() => $"{Method} ({File}:{Line}) {Reason}";
}

/// <summary>
/// Where an await cannot go, by the C# language's rules: the member, local function or lambda that would hold it, a
/// lock body (CS1996), a query expression; and the methods that cannot become async (ref/out/in parameters, iterators,
/// Main, partial and extern methods, event handlers, ref returns).
/// </summary>
internal static class AsyncRules
{
    public static string? Cannot(IMethodSymbol symbol, SyntaxNode syntax)
    {
        if (symbol.Parameters.Any(p => p.RefKind is RefKind.Ref or RefKind.Out or RefKind.In or RefKind.RefReadOnlyParameter))
        {
            return "it has ref, out or in parameters, which an async method cannot have (CS1988)";
        }
        if (syntax.DescendantNodes().OfType<YieldStatementSyntax>().Any(y => AsyncSyntax.DirectlyIn(y, syntax)))
        {
            return "it is an iterator: it would become IAsyncEnumerable with await foreach at every consumer; rewrite it by hand";
        }
        if (symbol.Name == "Main" && symbol.IsStatic)
        {
            return "it is the program's Main (startup runs before the app serves requests)";
        }
        if (symbol.IsPartialDefinition || symbol.PartialImplementationPart is not null || symbol.PartialDefinitionPart is not null || symbol.IsExtern)
        {
            return "it is a partial or extern method";
        }
        if (symbol.ReturnsVoid && symbol.Parameters.Length == 2 && symbol.Parameters[1].Type.Name.EndsWith("EventArgs", StringComparison.Ordinal))
        {
            return "it is an event handler: it would become async void; raise the work as a task instead";
        }
        if (symbol.ReturnsByRef || symbol.ReturnsByRefReadonly || symbol.ReturnType.IsRefLikeType)
        {
            return "it returns a ref or a ref struct, which a task cannot carry";
        }
        return null;
    }

    /// <summary>The member, local function or lambda that holds <paramref name="node"/>, and what forbids an await there (a lock).</summary>
    public static (SyntaxNode? Container, string? Blocker) Container(SyntaxNode node)
    {
        for (var n = node.Parent; n is not null; n = n.Parent)
        {
            switch (n)
            {
                case LockStatementSyntax l when l.Statement.Span.Contains(node.Span):
                    return (n, $"it is inside lock ({l.Expression}): await is not allowed in a lock body (CS1996); move the call out of the lock, or replace the lock with a SemaphoreSlim(1, 1) awaited with WaitAsync where the lock object is private to its type");
                case AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax or BaseMethodDeclarationSyntax or AccessorDeclarationSyntax or GlobalStatementSyntax:
                    return (n, null);
                case ArrowExpressionClauseSyntax a when a.Parent is PropertyDeclarationSyntax or IndexerDeclarationSyntax:
                    return (n, null);
                case VariableDeclaratorSyntax { Parent.Parent: FieldDeclarationSyntax }:
                case ParameterSyntax:
                case AttributeSyntax:
                    return (n, null);
                case QueryExpressionSyntax:
                    return (n, "it is inside a query expression, where await is not allowed: rewrite the query with methods by hand");
            }
        }
        return (null, null);
    }
}

/// <summary>Which C# types are tasks, for the rewrite's purposes.</summary>
internal static class FixTypes
{
    public static bool IsTask(ITypeSymbol? type) =>
        type is INamedTypeSymbol t && t.OriginalDefinition.ToDisplayString() is "System.Threading.Tasks.Task" or "System.Threading.Tasks.Task<TResult>"
            or "System.Threading.Tasks.ValueTask" or "System.Threading.Tasks.ValueTask<TResult>";

    /// <summary><c>System.Threading.TimerCallback</c>: the one void delegate a fix may make async (docs/fix.md, "Timer callbacks").</summary>
    public static bool IsTimerCallback(ITypeSymbol? type) => type?.ToDisplayString() == "System.Threading.TimerCallback";
}

/// <summary>A fix that would change more methods than allowed.</summary>
internal sealed class FixTooWideException(string message) : Exception(message)
{
    public static string Say(int max, string why) =>
        $"the change reaches more than {max} methods ({why}): fix the chain by hand, select fewer findings, or raise the bound with --max-methods";
}
