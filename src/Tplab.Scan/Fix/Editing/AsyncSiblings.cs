using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace Tplab.Scan.Fix.Editing;

/// <summary>A call's async sibling as the compiler binds it: the rewritten call, and the namespace to import for an extension not yet in scope.</summary>
internal sealed record Sibling(ExpressionSyntax Call, IMethodSymbol Method, string? Using);

/// <summary>
/// Finds a blocking call's async sibling by asking the compiler, never by guessing: <c>x.M(args)</c> is rewritten as
/// <c>x.MAsync(args)</c> (with the cancellation token in scope when an overload takes one) and bound speculatively at the
/// call; it is the sibling only when it binds to a method that is not obsolete and returns a task of the same result
/// (<c>Task&lt;T&gt;</c> or <c>ValueTask&lt;T&gt;</c> for <c>T</c>, <c>Task</c> or <c>ValueTask</c> for <c>void</c>). An extension
/// sibling in a namespace the file does not import yet (EF Core's <c>ToListAsync</c>) is found among the compilation's
/// references and bound through its static class before the <c>using</c> is added.
/// </summary>
internal static class AsyncSiblings
{
    private static readonly ConcurrentDictionary<(Compilation, string), IReadOnlyList<INamedTypeSymbol>> ExtensionHolders = new();

    private const string AnyToken = "default(global::System.Threading.CancellationToken)";

    public static Sibling? Find(SemanticModel model, InvocationExpressionSyntax call, IMethodSymbol method, string? token)
    {
        var original = method.ReturnsVoid ? null : method.ReturnType;
        // Stream.Read/Write(byte[], int, int): the Memory overload, as CA1835 asks (the array overload wraps it anyway).
        if (MemoryOverload(method, call) is { } memory)
        {
            var viaMemory = Find(model, call, memory, method.Name, original, token);
            if (viaMemory is not null)
            {
                return viaMemory;
            }
        }
        return Find(model, call, call.ArgumentList, method.Name, original, token);
    }

    private static ArgumentListSyntax? MemoryOverload(IMethodSymbol method, InvocationExpressionSyntax call)
    {
        if (method.Name is not ("Read" or "Write") || method.Parameters.Length != 3 || call.ArgumentList.Arguments.Count != 3
            || call.ArgumentList.Arguments.Any(a => a.NameColon is not null || !a.RefKindKeyword.IsKind(SyntaxKind.None))
            || method.Parameters[0].Type is not IArrayTypeSymbol { ElementType.SpecialType: SpecialType.System_Byte })
        {
            return null;
        }
        for (var t = method.ContainingType; t is not null; t = t.BaseType)
        {
            if (t.ToDisplayString() == "System.IO.Stream")
            {
                var a = call.ArgumentList.Arguments;
                return ArgumentList(SingletonSeparatedList(Argument(ParseExpression($"{a[0].Expression.WithoutTrivia()}.AsMemory({a[1].Expression.WithoutTrivia()}, {a[2].Expression.WithoutTrivia()})"))));
            }
        }
        return null;
    }

    private static Sibling? Find(SemanticModel model, InvocationExpressionSyntax call, ArgumentListSyntax arguments, string methodName, ITypeSymbol? original, string? token)
    {
        var name = methodName + "Async";
        foreach (var withToken in token is null ? [false] : new[] { true, false })
        {
            // Bound with a token of the right type: the parameter --add-cancellation plans does not exist yet where the call is.
            var args = withToken ? WithToken(arguments, token!) : arguments;
            var bindArgs = withToken ? WithToken(arguments, AnyToken) : arguments;
            var renamed = Renamed(call.Expression, name);
            if (renamed is null)
            {
                return null;
            }
            var candidate = call.WithExpression(renamed).WithArgumentList(args);
            if (Bind(model, call, candidate.WithArgumentList(bindArgs)) is { } m && Matches(m, original))
            {
                return new Sibling(candidate, m, null);
            }
            // An extension in a namespace the file does not import: bound through its static class, written as an extension call.
            if (call.Expression is MemberAccessExpressionSyntax ma && model.GetTypeInfo(ma.Expression).Type is { } receiverType && receiverType.TypeKind != TypeKind.Error
                && model.GetSymbolInfo(ma.Expression).Symbol is not INamedTypeSymbol)
            {
                foreach (var holder in Holders(model.Compilation, name))
                {
                    var qualified = InvocationExpression(
                        ParseExpression($"global::{holder.ToDisplayString()}.{name}"),
                        ArgumentList(SeparatedList(new[] { Argument(ma.Expression.WithoutTrivia()) }.Concat(bindArgs.Arguments))));
                    if (Bind(model, call, qualified) is { } ext && Matches(ext, original))
                    {
                        return new Sibling(candidate, ext, holder.ContainingNamespace.ToDisplayString());
                    }
                }
            }
        }
        return null;
    }

    /// <summary>Whether <paramref name="sibling"/> returns a task of <paramref name="original"/> (null: void).</summary>
    public static bool Matches(IMethodSymbol sibling, ITypeSymbol? original)
    {
        if (sibling.GetAttributes().Any(a => a.AttributeClass?.Name == "ObsoleteAttribute") || sibling.ReturnType is not INamedTypeSymbol returned)
        {
            return false;
        }
        var definition = returned.OriginalDefinition.ToDisplayString();
        if (original is null)
        {
            return definition is "System.Threading.Tasks.Task" or "System.Threading.Tasks.ValueTask";
        }
        return definition is "System.Threading.Tasks.Task<TResult>" or "System.Threading.Tasks.ValueTask<TResult>"
            && SymbolEqualityComparer.Default.Equals(returned.TypeArguments[0], original);
    }

    private static ArgumentListSyntax WithToken(ArgumentListSyntax arguments, string token) =>
        arguments.WithArguments(SeparatedList(arguments.Arguments.Append(Argument(ParseExpression(token))),
            Enumerable.Repeat(Token(SyntaxKind.CommaToken).WithTrailingTrivia(Space), arguments.Arguments.Count)));

    private static IMethodSymbol? Bind(SemanticModel model, SyntaxNode at, ExpressionSyntax candidate) =>
        model.GetSpeculativeSymbolInfo(at.SpanStart, candidate, SpeculativeBindingOption.BindAsExpression).Symbol as IMethodSymbol;

    private static ExpressionSyntax? Renamed(ExpressionSyntax expression, string name) => expression switch
    {
        MemberAccessExpressionSyntax ma => ma.WithName(Rename(ma.Name, name)),
        SimpleNameSyntax n => Rename(n, name).WithTriviaFrom(n),
        _ => null,
    };

    private static SimpleNameSyntax Rename(SimpleNameSyntax n, string name) => n switch
    {
        GenericNameSyntax g => g.WithIdentifier(Identifier(name).WithTriviaFrom(g.Identifier)),
        _ => IdentifierName(Identifier(name).WithTriviaFrom(n.Identifier)),
    };

    // Static classes with an extension method of that name, across the compilation and its references (found once per name).
    private static IReadOnlyList<INamedTypeSymbol> Holders(Compilation compilation, string name) =>
        ExtensionHolders.GetOrAdd((compilation, name), key =>
        {
            var found = new List<INamedTypeSymbol>();
            var stack = new Stack<INamespaceSymbol>([key.Item1.GlobalNamespace]);
            while (stack.Count > 0)
            {
                foreach (var member in stack.Pop().GetMembers())
                {
                    if (member is INamespaceSymbol ns)
                    {
                        stack.Push(ns);
                    }
                    else if (member is INamedTypeSymbol { IsStatic: true, MightContainExtensionMethods: true } type
                        && type.DeclaredAccessibility == Accessibility.Public
                        && type.GetMembers(key.Item2).Any(m => m is IMethodSymbol { IsExtensionMethod: true }))
                    {
                        found.Add(type);
                    }
                }
            }
            return found;
        });

    /// <summary>The cancellation token in scope at <paramref name="node"/>: a parameter, an HttpContext's RequestAborted, a controller's; null when none.</summary>
    public static string? TokenInScope(SemanticModel model, SyntaxNode node)
    {
        for (var n = node.Parent; n is not null; n = n.Parent)
        {
            var parameters = n switch
            {
                BaseMethodDeclarationSyntax m => m.ParameterList.Parameters,
                LocalFunctionStatementSyntax l => l.ParameterList.Parameters,
                ParenthesizedLambdaExpressionSyntax p => p.ParameterList.Parameters,
                SimpleLambdaExpressionSyntax s => SingletonSeparatedList(s.Parameter),
                _ => default,
            };
            foreach (var p in parameters)
            {
                var type = model.GetDeclaredSymbol(p)?.Type;
                if (type?.ToDisplayString() == "System.Threading.CancellationToken")
                {
                    return p.Identifier.ValueText;
                }
                if (type?.ToDisplayString() == "Microsoft.AspNetCore.Http.HttpContext")
                {
                    return p.Identifier.ValueText + ".RequestAborted";
                }
            }
            if (n is BaseMethodDeclarationSyntax or TypeDeclarationSyntax)
            {
                break;
            }
        }
        var method = model.GetEnclosingSymbol(node.SpanStart);
        for (var t = method?.ContainingType; t is not null && method is { IsStatic: false }; t = t.BaseType)
        {
            if (t.ToDisplayString() is "Microsoft.AspNetCore.Mvc.ControllerBase" or "Microsoft.AspNetCore.Mvc.RazorPages.PageModel")
            {
                return "HttpContext.RequestAborted";
            }
        }
        return null;
    }
}
