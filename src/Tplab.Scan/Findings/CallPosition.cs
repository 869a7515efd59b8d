using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Tplab.Scan.Findings;

/// <summary>
/// Where a call is, as a developer looks for it: the blocking member's name (<c>GetResult</c>, <c>Result</c>,
/// <c>Wait</c>, the method of a call written over several lines), not the start of the expression it ends.
/// </summary>
internal static class CallPosition
{
    /// <summary>The 1-based line and column of the member named at <paramref name="location"/> (its start when it names none).</summary>
    public static (int Line, int Column) Of(Location location)
    {
        var at = Member(location);
        var start = at.GetLineSpan().StartLinePosition;
        return (start.Line + 1, start.Character + 1);
    }

    /// <summary>The location of the member's name token, or <paramref name="location"/> itself.</summary>
    public static Location Member(Location location)
    {
        if (location.SourceTree is not { } tree || !location.IsInSource)
        {
            return location;
        }
        var node = tree.GetRoot().FindNode(location.SourceSpan, getInnermostNodeForTie: false);
        return NameOf(node) is { } name ? name.GetLocation() : location;
    }

    private static SyntaxNode? NameOf(SyntaxNode node) => node switch
    {
        InvocationExpressionSyntax invocation => NameOf(invocation.Expression) ?? invocation.Expression,
        MemberAccessExpressionSyntax access => access.Name,
        MemberBindingExpressionSyntax binding => binding.Name,
        ConditionalAccessExpressionSyntax conditional => NameOf(conditional.WhenNotNull),
        AwaitExpressionSyntax awaited => NameOf(awaited.Expression),
        ParenthesizedExpressionSyntax parenthesized => NameOf(parenthesized.Expression),
        GenericNameSyntax or IdentifierNameSyntax => node,
        ArgumentSyntax argument => NameOf(argument.Expression),
        _ => null,
    };
}
