using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;
using Tplab.Scan.Graph;

namespace Tplab.Scan.Findings;

/// <summary>
/// <c>// tplab-ignore: reason</c> on the line of the blocking call (or alone on the line above it) suppresses the
/// findings that end there; on the line of a call in the chain, the findings that pass through that call.
/// </summary>
internal static class InlineIgnore
{
    public const string Marker = "tplab-ignore";

    /// <summary>The reason given, "" when none was, or null when nothing on the chain is ignored.</summary>
    public static string? Find(IReadOnlyList<(CodeNode Node, Edge? Into)> path, Location site) =>
        At(site) ?? path.Select(p => p.Into is null ? null : At(p.Into.Site)).FirstOrDefault(r => r is not null);

    /// <summary>The reason of a <c>tplab-ignore</c> at the call <paramref name="location"/> (its first line or its member's), or null.</summary>
    public static string? At(Location location)
    {
        if (location.SourceTree is not { } tree)
        {
            return null;
        }
        var first = location.GetLineSpan().StartLinePosition.Line;
        var member = CallPosition.Of(location).Line - 1;
        return OnLine(tree, first) ?? (member != first ? OnLine(tree, member) : null);
    }

    private static string? OnLine(SyntaxTree tree, int line)
    {
        var text = tree.GetText();
        var root = tree.GetRoot();
        var same = InComment(root, text.Lines[line].Span);
        if (same is not null || line == 0)
        {
            return same;
        }
        var above = text.Lines[line - 1];
        return above.ToString().TrimStart().StartsWith("//", StringComparison.Ordinal) ? InComment(root, above.Span) : null;
    }

    // Only a comment counts (the compiler's trivia): "// tplab-ignore" inside a string literal is text of the program.
    private static string? InComment(SyntaxNode root, TextSpan line) =>
        root.DescendantTrivia(line)
            .Where(t => t.IsKind(SyntaxKind.SingleLineCommentTrivia) && line.Contains(t.SpanStart))
            .Select(t => Reason(t.ToString()))
            .FirstOrDefault(r => r is not null);

    private static string? Reason(string line)
    {
        // "// tplab-ignore: reason": the marker opens the comment.
        var at = line.IndexOf(Marker, StringComparison.Ordinal);
        if (at < 0 || !line[..at].TrimEnd().EndsWith("//", StringComparison.Ordinal))
        {
            return null;
        }
        var rest = line[(at + Marker.Length)..].Trim();
        return rest.StartsWith(':') ? rest[1..].Trim() : rest;
    }
}
