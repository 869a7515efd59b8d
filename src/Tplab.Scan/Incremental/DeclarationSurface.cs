using System.Buffers.Binary;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Tplab.Scan.Incremental;

/// <summary>
/// What a source declares to the projects that reference its project, as a hash: its tokens, documentation comments
/// and directives, with the contents of every method, constructor, operator and accessor body left out, and neither
/// whitespace nor plain comments. Two versions with the same surface differ only where a referencing project never
/// looks: the compiler gives it the referenced project's symbols, and a build's reference assembly (what MSBuild's
/// incremental build compares before recompiling dependents) holds no bodies. Everything else counts: attributes,
/// signatures, field and property initializers, constants, directives (<c>#nullable</c>, <c>#if</c>), documentation
/// comments, top-level statements (their synthesized <c>Main</c>'s signature follows them), and whether a body is an
/// iterator (<c>IMethodSymbol.IsIterator</c> reads it from the body).
/// </summary>
internal static class DeclarationSurface
{
    /// <summary>The surface of <paramref name="tree"/> as a SHA-256 in hex.</summary>
    public static string Of(SyntaxTree tree)
    {
        ArgumentNullException.ThrowIfNull(tree);
        var text = tree.GetText();
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        // Bodies are not descended into: the walk realises the declarations' tokens, not the statements'.
        foreach (var item in tree.GetRoot().DescendantNodesAndTokens(n => !IsBody(n)))
        {
            if (item.IsToken)
            {
                var token = item.AsToken();
                Trivia(hash, token.LeadingTrivia);
                Add(hash, token.Kind(), token.Text);
                Trivia(hash, token.TrailingTrivia);
            }
            else if (item.AsNode() is { } node && IsBody(node))
            {
                Add(hash, node.Kind(), IsIterator(node, text) ? "yield" : "");
            }
        }
        return Convert.ToHexStringLower(hash.GetHashAndReset());
    }

    // A part as its kind, its length and its UTF-16 code units: no allocation per token.
    private static void Add(IncrementalHash hash, SyntaxKind kind, string part)
    {
        Span<byte> head = stackalloc byte[8];
        BinaryPrimitives.WriteInt32LittleEndian(head, (int)kind);
        BinaryPrimitives.WriteInt32LittleEndian(head[4..], part.Length);
        hash.AppendData(head);
        hash.AppendData(MemoryMarshal.AsBytes(part.AsSpan()));
    }

    // Documentation comments and directives count; whitespace, plain comments and inactive text do not.
    private static void Trivia(IncrementalHash hash, SyntaxTriviaList list)
    {
        foreach (var trivia in list)
        {
            if (trivia.HasStructure)
            {
                Add(hash, trivia.Kind(), trivia.ToFullString());
            }
        }
    }

    // A member's body: a block or an expression body of a method, constructor, destructor, operator or accessor, and
    // a property's or indexer's expression body (its getter). Local functions and lambdas are inside one.
    private static bool IsBody(SyntaxNode node) => node switch
    {
        BlockSyntax { Parent: BaseMethodDeclarationSyntax or AccessorDeclarationSyntax } => true,
        ArrowExpressionClauseSyntax { Parent: BaseMethodDeclarationSyntax or AccessorDeclarationSyntax or BasePropertyDeclarationSyntax } => true,
        _ => false,
    };

    // A yield statement of the body itself (not of a lambda or local function inside it) makes its member an iterator;
    // the statements are read only when the body's text holds the word.
    private static bool IsIterator(SyntaxNode body, Microsoft.CodeAnalysis.Text.SourceText text) =>
        body is BlockSyntax && text.ToString(body.Span).Contains("yield", StringComparison.Ordinal)
        && body.DescendantNodes(n => n is not (AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax)).OfType<YieldStatementSyntax>().Any();
}
