using System.Globalization;
using Microsoft.CodeAnalysis;
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
        FormattableString.Invariant($"{index.CompilationOf(tree).AssemblyName}|{index.RelativePath(tree)}|{start}|{length}");

    // The trees by project and relative path, made once per index.
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
        var trees = Trees.GetValue(index, i =>
        {
            var byKey = new Dictionary<string, SyntaxTree>(StringComparer.Ordinal);
            foreach (var t in i.Trees)
            {
                byKey.TryAdd(i.CompilationOf(t).AssemblyName + "|" + i.RelativePath(t), t);
            }
            return byKey;
        });
        var root = trees.TryGetValue(parts[0] + "|" + parts[1], out var tree) ? tree.GetRoot() : null;
        if (root is null || start + length > root.FullSpan.End)
        {
            return null;
        }
        var span = new Microsoft.CodeAnalysis.Text.TextSpan(start, length);
        return root.FindNode(span, getInnermostNodeForTie: true).AncestorsAndSelf().Where(n => n.Span == span).Select(index.NodeFor).FirstOrDefault(n => n is not null);
    }
}
