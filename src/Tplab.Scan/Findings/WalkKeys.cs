using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Graph;

namespace Tplab.Scan.Findings;

/// <summary>
/// Nodes, sites and places as text that is the same in another scan of the same code (the project, the file relative
/// to the root, the span): what the scan cache keeps of the walks (<c>Incremental/CachedWalks</c>), matched again after
/// an edit elsewhere.
/// </summary>
internal static class WalkKeys
{
    public static string Node(CodeNode node, SourceIndex index) => Place(node.Syntax.SyntaxTree, node.Syntax.Span.Start, node.Syntax.Span.Length, index);

    /// <summary>A site: where it is, its kind and call, and the node whose body makes it (one key per site of the catalogue).</summary>
    public static string Site(SiteFacts site, SourceIndex index) =>
        Place(site.Site, index) + "|" + site.Call.Kind.ToString() + "|" + site.Call.Name + "|" + Node(site.In, index);

    public static string Place(Location location, SourceIndex index) =>
        location.SourceTree is { } tree ? Place(tree, location.SourceSpan.Start, location.SourceSpan.Length, index) : "(metadata)|" + location;

    private static string Place(SyntaxTree tree, int start, int length, SourceIndex index) =>
        FileOf(tree, index) + FormattableString.Invariant($"{start}|{length}");

    /// <summary>The project and file of a <see cref="Node"/> or <see cref="Place"/> key (<c>asm|path|</c>, the separator kept).</summary>
    public static string FileOf(string key)
    {
        ArgumentNullException.ThrowIfNull(key);
        var first = key.IndexOf('|', StringComparison.Ordinal);
        var second = first < 0 ? -1 : key.IndexOf('|', first + 1);
        return second < 0 ? key : key[..(second + 1)];
    }

    /// <summary>The project and file of <paramref name="tree"/> as <see cref="FileOf"/> gives them.</summary>
    public static string FileOf(SyntaxTree tree, SourceIndex index) => FormattableString.Invariant($"{index.CompilationOf(tree).AssemblyName}|{index.RelativePath(tree)}|");

    /// <summary>
    /// A member's rank among its file's declarations (methods, constructors, operators, accessors, properties' expression
    /// bodies), or null when <paramref name="node"/> is not one (a lambda, a local function, top-level statements). An
    /// edit inside bodies keeps it, where it moves the spans after it: the file declares the same members, each with a
    /// body of the same kind (<c>Incremental/DeclarationSurface</c>).
    /// </summary>
    public static int? Rank(CodeNode node)
    {
        ArgumentNullException.ThrowIfNull(node);
        var rank = Declarations(node.Syntax.SyntaxTree).IndexOf(node.Syntax);
        return rank < 0 ? null : rank;
    }

    /// <summary>The node of the declaration at <paramref name="rank"/> in the file a <see cref="FileOf"/> key names, or null.</summary>
    public static CodeNode? FindDeclaration(string file, int rank, SourceIndex index)
    {
        ArgumentNullException.ThrowIfNull(index);
        var declarations = TreesOf(index).GetValueOrDefault(file) is { } tree ? Declarations(tree) : [];
        return rank >= 0 && rank < declarations.Count ? index.NodeFor(declarations[rank]) : null;
    }

    // Bodies are not descended into: the members and their accessors, in the file's order (listed once per tree).
    private static List<SyntaxNode> Declarations(SyntaxTree tree) => DeclarationLists.GetValue(tree, t =>
        [.. t.GetRoot().DescendantNodes(n => n is not (BlockSyntax or ArrowExpressionClauseSyntax or EqualsValueClauseSyntax or AttributeListSyntax or ParameterListSyntax))
            .Where(n => n is BaseMethodDeclarationSyntax or AccessorDeclarationSyntax or ArrowExpressionClauseSyntax { Parent: BasePropertyDeclarationSyntax })]);

    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<SyntaxTree, List<SyntaxNode>> DeclarationLists = new();

    // The trees by project and relative path (FileOf), made once per index.
    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<SourceIndex, Dictionary<string, SyntaxTree>> Trees = new();

    /// <summary>The node a <see cref="Node"/> key names in this scan's code, or null (its file or declaration is not there).</summary>
    public static CodeNode? FindNode(string key, SourceIndex index)
    {
        var parts = key.Split('|');
        if (parts.Length != 4 || !int.TryParse(parts[2], NumberStyles.None, CultureInfo.InvariantCulture, out var start)
            || !int.TryParse(parts[3], NumberStyles.None, CultureInfo.InvariantCulture, out var length))
        {
            return null;
        }
        var root = TreesOf(index).TryGetValue(FileOf(key), out var tree) ? tree.GetRoot() : null;
        if (root is null || start + length > root.FullSpan.End)
        {
            return null;
        }
        var span = new Microsoft.CodeAnalysis.Text.TextSpan(start, length);
        return root.FindNode(span, getInnermostNodeForTie: true).AncestorsAndSelf().Where(n => n.Span == span).Select(index.NodeFor).FirstOrDefault(n => n is not null);
    }

    private static Dictionary<string, SyntaxTree> TreesOf(SourceIndex index) => Trees.GetValue(index, i =>
    {
        var byKey = new Dictionary<string, SyntaxTree>(StringComparer.Ordinal);
        foreach (var t in i.Trees)
        {
            byKey.TryAdd(FileOf(t, i), t);
        }
        return byKey;
    });
}
