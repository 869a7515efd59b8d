using Microsoft.CodeAnalysis;

namespace Tplab.Scan.Fix.Editing;

/// <summary>
/// One fix's working state shared by the parts that plan it: the solution as it was before the fix, the edits planned
/// on it, the naming rules, a semantic model per tree (built once), and the names a new type reference takes in a file.
/// </summary>
internal sealed class FixContext(Solution solution, ChangeSet changes, FixNaming naming, CancellationToken cancellationToken, bool addCancellation = false)
{
    /// <summary>The name of the token parameter <c>--add-cancellation</c> adds.</summary>
    public const string TokenParameter = "cancellationToken";

    private readonly Dictionary<SyntaxTree, SemanticModel> _models = [];

    public Solution Solution { get; } = solution;

    public ChangeSet Changes { get; } = changes;

    public FixNaming Naming { get; } = naming;

    public CancellationToken CancellationToken { get; } = cancellationToken;

    /// <summary>Most methods one fix may change (<c>--max-methods</c>; default: no bound).</summary>
    public int MaxMethods { get; init; } = int.MaxValue;

    /// <summary><c>--add-cancellation</c>: methods whose return type changes gain a token parameter.</summary>
    public bool AddCancellation { get; } = addCancellation;

    /// <summary>
    /// With <c>--add-cancellation</c>, the token at <paramref name="node"/>: one already in scope (<see cref="AsyncSiblings.TokenInScope"/>), else the
    /// parameter this fix adds to the method around it, unless a static lambda or local
    /// function in between cannot capture it; null when there is none.
    /// </summary>
    public string? Token(SemanticModel model, SyntaxNode node)
    {
        // Without --add-cancellation no call gains a token it did not have (TPFIX004).
        if (!AddCancellation)
        {
            return null;
        }
        if (AsyncSiblings.TokenInScope(model, node) is { } inScope)
        {
            return inScope;
        }
        foreach (var n in node.Ancestors())
        {
            switch (n)
            {
                case Microsoft.CodeAnalysis.CSharp.Syntax.AnonymousFunctionExpressionSyntax f when f.Modifiers.Any(Microsoft.CodeAnalysis.CSharp.SyntaxKind.StaticKeyword):
                case Microsoft.CodeAnalysis.CSharp.Syntax.LocalFunctionStatementSyntax l when l.Modifiers.Any(Microsoft.CodeAnalysis.CSharp.SyntaxKind.StaticKeyword):
                    return null;
                case Microsoft.CodeAnalysis.CSharp.Syntax.MethodDeclarationSyntax m:
                    return Changes.Containers.TryGetValue(m, out var change) && change.AddToken is not null ? TokenParameter : null;
                case Microsoft.CodeAnalysis.CSharp.Syntax.BaseTypeDeclarationSyntax:
                    return null;
            }
        }
        return null;
    }

    public async Task<SemanticModel> ModelAsync(SyntaxTree tree)
    {
        if (!_models.TryGetValue(tree, out var model))
        {
            var document = Solution.GetDocument(tree) ?? throw new InvalidOperationException("a tree outside the solution");
            model = await document.GetSemanticModelAsync(CancellationToken).ConfigureAwait(false) ?? throw new InvalidOperationException("no semantic model");
            _models[tree] = model;
        }
        return model;
    }

    /// <summary><c>Task</c> as the file can name it at <paramref name="at"/> (its using added when needed).</summary>
    public string TaskName(SemanticModel model, SyntaxNode at) => TypeName(model, at, "Task", "System.Threading.Tasks");

    /// <summary>
    /// The short name when the file sees <paramref name="ns"/>.<paramref name="name"/> by it; the using added when no
    /// type of that name is in scope; the full name when another type of that name is.
    /// </summary>
    public string TypeName(SemanticModel model, SyntaxNode at, string name, string ns)
    {
        var named = model.LookupNamespacesAndTypes(at.SpanStart, name: name);
        if (named.Any(s => s.ToDisplayString() == $"{ns}.{name}"))
        {
            return name;
        }
        if (named.IsEmpty)
        {
            Changes.Using(at.SyntaxTree, ns);
            return name;
        }
        return $"{ns}.{name}";
    }

    /// <summary>file:line, relative to the fixed folder, for reasons and notes.</summary>
    public string Where(SyntaxNode node) => $"{RelativePath(node)}:{node.GetLocation().GetLineSpan().StartLinePosition.Line + 1}";

    public string RelativePath(SyntaxNode node) => Naming.Relative(node.SyntaxTree.FilePath);

    /// <summary>obj/ output, *.g.cs and *.designer.cs, or a file that says it is generated: tplab does not edit it.</summary>
    public static bool IsGenerated(SyntaxTree tree)
    {
        var path = tree.FilePath.Replace('\\', '/');
        if (path.Contains("/obj/", StringComparison.Ordinal) || path.EndsWith(".g.cs", StringComparison.OrdinalIgnoreCase) || path.EndsWith(".designer.cs", StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }
        var text = tree.GetText();
        var head = text.ToString(new Microsoft.CodeAnalysis.Text.TextSpan(0, Math.Min(400, text.Length)));
        return head.Contains("<auto-generated", StringComparison.Ordinal);
    }
}
