using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace Tplab.Scan.Rules;

/// <summary>
/// A task an argument makes complete: the solution's own async method, called with the constant <c>false</c> for a
/// parameter every <c>await</c> of its body sits under (<c>if (allowSync &amp;&amp; stale) await SyncAsync();</c>, then
/// only synchronous work). Called with <c>allowSync: false</c> it never suspends, so the task it returns is complete when
/// the caller reads it: <c>Manifests(allowSync: false).Result</c> waits for nothing (the work inside runs either way and is
/// judged where it is).
/// </summary>
internal static class CompleteByArgument
{
    public static bool Holds(IInvocationOperation call)
    {
        var method = call.TargetMethod;
        // A virtual method's body is one of several the call may run: an override may await unconditionally.
        if (!method.IsAsync || method.IsVirtual || method.IsOverride || method.IsAbstract || method.DeclaringSyntaxReferences is not [var reference]
            || reference.GetSyntax() is not BaseMethodDeclarationSyntax { Body: { } body })
        {
            return false;
        }
        FactDependencies.File(reference.SyntaxTree);
        var off = call.Arguments.Where(a => a.Parameter is not null && a.Value.ConstantValue is { HasValue: true, Value: false })
            .Select(a => a.Parameter!.Name).ToHashSet(StringComparer.Ordinal);
        if (off.Count == 0)
        {
            return false;
        }
        // A parameter the body assigns may be true again by the time it is tested.
        off.ExceptWith(body.DescendantNodes().OfType<AssignmentExpressionSyntax>().Select(a => a.Left).OfType<IdentifierNameSyntax>().Select(i => i.Identifier.ValueText));
        var waits = Suspensions(body).ToList();
        return waits.Count > 0 && waits.All(w => UnderAnyOf(w, body, off));
    }

    // Where the body may suspend: its awaits, await foreach and await using; not those of its lambdas and local functions.
    private static IEnumerable<SyntaxNode> Suspensions(BlockSyntax body) =>
        body.DescendantNodes(n => n is not (AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax))
            .Where(n => n is AwaitExpressionSyntax
                || (n is ForEachStatementSyntax f && f.AwaitKeyword.IsKind(SyntaxKind.AwaitKeyword))
                || (n is UsingStatementSyntax u && u.AwaitKeyword.IsKind(SyntaxKind.AwaitKeyword))
                || (n is LocalDeclarationStatementSyntax d && d.AwaitKeyword.IsKind(SyntaxKind.AwaitKeyword)));

    // The node sits in the then-branch of an if whose condition needs one of the parameters true: `if (p)`,
    // `if (p && …)`, `if (… && p)`.
    private static bool UnderAnyOf(SyntaxNode node, SyntaxNode body, HashSet<string> parameters)
    {
        for (var (child, parent) = (node, node.Parent); parent is not null && parent != body.Parent; (child, parent) = (parent, parent.Parent))
        {
            if (parent is IfStatementSyntax branch && branch.Statement == child && Needs(branch.Condition, parameters))
            {
                return true;
            }
        }
        return false;
    }

    private static bool Needs(ExpressionSyntax condition, HashSet<string> parameters) => condition switch
    {
        ParenthesizedExpressionSyntax p => Needs(p.Expression, parameters),
        BinaryExpressionSyntax b when b.IsKind(SyntaxKind.LogicalAndExpression) => Needs(b.Left, parameters) || Needs(b.Right, parameters),
        IdentifierNameSyntax id => parameters.Contains(id.Identifier.ValueText),
        _ => false,
    };
}
