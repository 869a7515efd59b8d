using Microsoft.CodeAnalysis;

namespace Tplab.Scan.Fix.Editing;

/// <summary>The blocking call's own rewrite: which node is replaced, by what, and the namespaces the file must import.</summary>
internal sealed record SiteEdit(SyntaxNode Node, Func<SyntaxNode, SyntaxNode> Replace, IReadOnlyList<string> Usings, string Description);
