using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace Tplab.Scan.Fix.Editing;

/// <summary>
/// The syntax of an async rewrite, built without the formatter: every token's whitespace is written explicitly and
/// the replaced node's trivia is kept, so the code around an edit stays byte-identical.
/// </summary>
internal static class AsyncSyntax
{
    /// <summary><c>await e</c> (<c>await e.ConfigureAwait(false)</c> when the file uses it), parenthesised where <paramref name="original"/> sits in a member access.</summary>
    public static ExpressionSyntax Await(ExpressionSyntax expression, SyntaxNode original, bool configureAwait)
    {
        var awaited = expression.WithoutTrivia();
        if (configureAwait)
        {
            awaited = InvocationExpression(
                MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, Parenthesize(awaited), IdentifierName("ConfigureAwait")),
                ArgumentList(SingletonSeparatedList(Argument(LiteralExpression(SyntaxKind.FalseLiteralExpression)))));
        }
        ExpressionSyntax result = AwaitExpression(Token(SyntaxKind.AwaitKeyword).WithTrailingTrivia(Space), awaited);
        if (NeedsParentheses(original))
        {
            result = ParenthesizedExpression(result);
        }
        return result.WithTriviaFrom(original);
    }

    /// <summary><c>e.GetAwaiter().GetResult()</c>: where a caller cannot become async, it waits as before, now on the task.</summary>
    public static ExpressionSyntax Block(ExpressionSyntax expression) =>
        InvocationExpression(MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression,
            InvocationExpression(MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, Parenthesize(expression.WithoutTrivia()), IdentifierName("GetAwaiter"))),
            IdentifierName("GetResult"))).WithTriviaFrom(expression);

    private static ExpressionSyntax Parenthesize(ExpressionSyntax e) =>
        e is InvocationExpressionSyntax or MemberAccessExpressionSyntax or IdentifierNameSyntax or GenericNameSyntax or ElementAccessExpressionSyntax or ParenthesizedExpressionSyntax
            ? e : ParenthesizedExpression(e);

    private static bool NeedsParentheses(SyntaxNode original) => original.Parent switch
    {
        MemberAccessExpressionSyntax m => m.Expression == original,
        ConditionalAccessExpressionSyntax c => c.Expression == original,
        ElementAccessExpressionSyntax e => e.Expression == original,
        InvocationExpressionSyntax i => i.Expression == original,
        PostfixUnaryExpressionSyntax => true,
        _ => false,
    };

    /// <summary>The <c>async</c> keyword added to a declaration's modifiers, taking the leading trivia when there were none.</summary>
    public static (SyntaxTokenList Modifiers, TypeSyntax ReturnType) AddAsync(SyntaxTokenList modifiers, TypeSyntax returnType)
    {
        if (modifiers.Count == 0)
        {
            var token = Token(SyntaxKind.AsyncKeyword).WithLeadingTrivia(returnType.GetLeadingTrivia()).WithTrailingTrivia(Space);
            return (TokenList(token), returnType.WithLeadingTrivia());
        }
        // After the access and static/override modifiers, as the IDE writes it: public static async, public override async.
        return (modifiers.Add(Token(SyntaxKind.AsyncKeyword).WithTrailingTrivia(Space)), returnType);
    }

    /// <summary><c>T</c> → <c>Task&lt;T&gt;</c>, <c>void</c> → <c>Task</c>, trivia kept.</summary>
    public static TypeSyntax TaskOf(TypeSyntax returnType, string task)
    {
        var text = returnType is PredefinedTypeSyntax p && p.Keyword.IsKind(SyntaxKind.VoidKeyword)
            ? task
            : $"{task}<{returnType.WithoutTrivia().ToString()}>";
        return ParseTypeName(text).WithTriviaFrom(returnType);
    }

    /// <summary>Whether a node sits in <paramref name="body"/> itself, not in a lambda or local function inside it.</summary>
    public static bool DirectlyIn(SyntaxNode node, SyntaxNode body)
    {
        for (var n = node.Parent; n is not null && n != body; n = n.Parent)
        {
            if (n is AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax)
            {
                return false;
            }
        }
        return true;
    }

    /// <summary><c>(…, CancellationToken cancellationToken = default)</c>: the token parameter added last.</summary>
    public static ParameterListSyntax AddToken(ParameterListSyntax list, string type, string name, bool withDefault)
    {
        var parameter = Parameter(Identifier(name)).WithType(ParseTypeName(type).WithTrailingTrivia(Space));
        if (withDefault)
        {
            parameter = parameter.WithDefault(EqualsValueClause(Token(SyntaxKind.EqualsToken).WithLeadingTrivia(Space).WithTrailingTrivia(Space), LiteralExpression(SyntaxKind.DefaultLiteralExpression, Token(SyntaxKind.DefaultKeyword))));
        }
        if (list.Parameters.Count == 0)
        {
            return list.AddParameters(parameter);
        }
        var separators = list.Parameters.GetSeparators().ToList();
        separators.Add(Token(SyntaxKind.CommaToken).WithTrailingTrivia(Space));
        var last = list.Parameters[^1];
        var parameters = list.Parameters.Replace(last, last.WithoutTrailingTrivia()).Add(parameter.WithTrailingTrivia(last.GetTrailingTrivia()));
        return list.WithParameters(SeparatedList(parameters, separators));
    }

    /// <summary><c>f(a, token)</c>, or <c>f(a, cancellationToken: token)</c> where a positional argument could bind to another optional parameter.</summary>
    public static InvocationExpressionSyntax AddTokenArgument(InvocationExpressionSyntax call, string token, string name, bool positional)
    {
        var argument = Argument(ParseExpression(token));
        if (!positional)
        {
            argument = argument.WithNameColon(NameColon(IdentifierName(name)).WithTrailingTrivia(Space));
        }
        var args = call.ArgumentList.Arguments;
        if (args.Count == 0)
        {
            return call.WithArgumentList(call.ArgumentList.AddArguments(argument));
        }
        var separators = args.GetSeparators().ToList();
        separators.Add(Token(SyntaxKind.CommaToken).WithTrailingTrivia(Space));
        return call.WithArgumentList(call.ArgumentList.WithArguments(SeparatedList(args.Add(argument), separators)));
    }

    /// <summary>The file's line ending: the first one it has, else "\n".</summary>
    public static string Newline(SyntaxNode root) =>
        root.DescendantTrivia().FirstOrDefault(t => t.IsKind(SyntaxKind.EndOfLineTrivia)).ToFullString() is { Length: > 0 } n ? n : "\n";

    /// <summary>Adds <c>using ns;</c> to a file that lacks it, in order among its usings.</summary>
    public static CompilationUnitSyntax AddUsing(CompilationUnitSyntax unit, string ns)
    {
        if (unit.Usings.Any(u => u.Alias is null && u.StaticKeyword == default && u.Name?.ToString() == ns))
        {
            return unit;
        }
        var newline = Newline(unit);
        var directive = UsingDirective(Token(SyntaxKind.UsingKeyword).WithTrailingTrivia(Space), default, null, ParseName(ns), Token(SyntaxKind.SemicolonToken))
            .WithTrailingTrivia(EndOfLine(newline));
        var plain = unit.Usings.Where(u => u.Alias is null && u.StaticKeyword == default && u.GlobalKeyword == default).ToList();
        if (plain.Count == 0)
        {
            if (unit.Usings.Count > 0)
            {
                return unit.WithUsings(unit.Usings.Add(directive));
            }
            // The first line's trivia (a header comment) stays first.
            var first = unit.GetFirstToken();
            var lead = first.LeadingTrivia;
            var unit2 = unit.ReplaceToken(first, first.WithLeadingTrivia());
            return unit2.WithUsings(unit2.Usings.Add(directive.WithLeadingTrivia(lead).WithTrailingTrivia(EndOfLine(newline), EndOfLine(newline))));
        }
        var after = plain.LastOrDefault(u => string.CompareOrdinal(Order(u.Name!.ToString()), Order(ns)) < 0);
        var index = after is null ? unit.Usings.IndexOf(plain[0]) : unit.Usings.IndexOf(after) + 1;
        if (index == unit.Usings.IndexOf(plain[0]) && index < unit.Usings.Count)
        {
            // Before the first using: it takes the first one's leading trivia (a header comment stays on top).
            var firstUsing = unit.Usings[index];
            var moved = unit.Usings.Replace(firstUsing, firstUsing.WithLeadingTrivia());
            return unit.WithUsings(moved.Insert(index, directive.WithLeadingTrivia(firstUsing.GetLeadingTrivia())));
        }
        return unit.WithUsings(unit.Usings.Insert(index, directive));
    }

    // System namespaces first, as dotnet format orders them.
    private static string Order(string ns) => (ns == "System" || ns.StartsWith("System.", StringComparison.Ordinal) ? "0" : "1") + ns;
}
