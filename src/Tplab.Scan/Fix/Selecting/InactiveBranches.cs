using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using Tplab.Blocking;

namespace Tplab.Scan.Fix.Selecting;

/// <summary>
/// A blocking site whose method has another version in an inactive preprocessor branch (<c>#if DEBUG … #else …</c>)
/// that makes the same call: the build check compiles one configuration, so a fix would be reported as done while the
/// other branch still blocks (and sits, synchronous, in a method now async). Such a site is refused with the reason.
/// </summary>
internal static class InactiveBranches
{
    /// <summary>Why the site at <paramref name="node"/> is refused, or null when no inactive branch of its method names <paramref name="call"/>.</summary>
    public static string? Reason(SyntaxNode node, BlockingCall call)
    {
        if (node.FirstAncestorOrSelf<MemberDeclarationSyntax>(m => m is BaseMethodDeclarationSyntax or BasePropertyDeclarationSyntax or GlobalStatementSyntax or TypeDeclarationSyntax) is not { } member)
        {
            return null;
        }
        // The member, and what directly follows it up to the next token (an #else version of the whole method lies there).
        var end = member.GetLastToken().GetNextToken() is { RawKind: not 0 } next ? next.SpanStart : member.FullSpan.End;
        var span = TextSpan.FromBounds(member.FullSpan.Start, Math.Max(end, member.FullSpan.End));
        var name = call.Frame.MethodName.StartsWith("get_", StringComparison.Ordinal) ? call.Frame.MethodName[4..] : call.Frame.MethodName;
        var root = node.SyntaxTree.GetRoot();
        var inactive = root.DescendantTrivia(span, descendIntoTrivia: true)
            .Where(t => t.IsKind(SyntaxKind.DisabledTextTrivia) && span.Contains(t.SpanStart))
            .FirstOrDefault(t => t.ToString().Contains(name, StringComparison.Ordinal));
        if (inactive.RawKind == 0)
        {
            return null;
        }
        var line = inactive.GetLocation().GetLineSpan().StartLinePosition.Line + 1;
        return $"an inactive preprocessor branch of its method (line {line}) calls {name} too: tplab compiles one configuration and would leave that branch blocking; fix both branches by hand";
    }
}
