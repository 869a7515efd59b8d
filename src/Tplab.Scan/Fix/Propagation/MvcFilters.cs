using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Tplab.Scan.Fix.Propagation;

/// <summary>
/// A synchronous MVC filter (<c>IActionFilter</c>, <c>IResourceFilter</c>) whose before or after method must become
/// async: the class implements the async twin instead (<c>IAsyncActionFilter</c>, <c>IAsyncResourceFilter</c>) with
/// one new method that runs the two as MVC ran them, and skips the rest of the pipeline when the before method
/// short-circuits by setting a result:
/// <code>
/// public async Task OnActionExecutionAsync(ActionExecutingContext context, ActionExecutionDelegate next)
/// {
///     await OnActionExecutingAsync(context);
///     if (context.Result is null)
///     {
///         OnActionExecuted(await next());
///     }
/// }
/// </code>
/// The two methods stay as they were (ordinary methods now), so the rest of the fix changes them like any other.
/// Only where the class itself lists the interface, implements it implicitly, is sealed or has no subclass in the
/// solution, and does not implement the async twin already (MVC would then run only the async one).
/// </summary>
internal sealed record MvcFilter(string Interface, string AsyncInterface, string Before, string After, string Method, string Delegate)
{
    private const string Namespace = "Microsoft.AspNetCore.Mvc.Filters";

    public static readonly IReadOnlyList<MvcFilter> All =
    [
        new("IActionFilter", "IAsyncActionFilter", "OnActionExecuting", "OnActionExecuted", "OnActionExecutionAsync", "ActionExecutionDelegate"),
        new("IResourceFilter", "IAsyncResourceFilter", "OnResourceExecuting", "OnResourceExecuted", "OnResourceExecutionAsync", "ResourceExecutionDelegate"),
    ];

    /// <summary>The filter interface <paramref name="method"/> implements as one of its two methods, when the class can switch to the async twin; else null.</summary>
    public static (MvcFilter Filter, INamedTypeSymbol Interface)? For(IMethodSymbol method, IReadOnlyList<IMethodSymbol> family)
    {
        if (method.ContainingType is not { TypeKind: TypeKind.Class } type || method.ExplicitInterfaceImplementations.Length > 0 || method.IsVirtual || method.IsOverride || method.IsAbstract)
        {
            return null;
        }
        foreach (var filter in All)
        {
            if (method.Name != filter.Before && method.Name != filter.After)
            {
                continue;
            }
            var iface = type.Interfaces.FirstOrDefault(i => i.ToDisplayString() == $"{Namespace}.{filter.Interface}");
            // The family is the interface's method and every implementation of it; the others stay as they are.
            if (iface is null || type.AllInterfaces.Any(i => i.ToDisplayString() == $"{Namespace}.{filter.AsyncInterface}")
                || !family.Any(m => SymbolEqualityComparer.Default.Equals(m.ContainingType, iface))
                || family.Any(m => !SymbolEqualityComparer.Default.Equals(m, method) && SymbolEqualityComparer.Default.Equals(m.ContainingType, type)))
            {
                continue;
            }
            return (filter, iface);
        }
        return null;
    }

    /// <summary>The class with the async twin in the interface's place and the new method after the filter's two.</summary>
    public ClassDeclarationSyntax Rewrite(ClassDeclarationSyntax type, string before, string after, bool awaitBefore, bool awaitAfter, string task, bool configureAwait, string newline)
    {
        var baseType = type.BaseList!.Types.First(t => Rightmost(t.Type) == Interface);
        var renamed = baseType.Type switch
        {
            QualifiedNameSyntax q => (TypeSyntax)q.WithRight(SyntaxFactory.IdentifierName(AsyncInterface).WithTriviaFrom(q.Right)),
            var t => SyntaxFactory.IdentifierName(AsyncInterface).WithTriviaFrom(t),
        };
        type = type.ReplaceNode(baseType, baseType.WithType(renamed));
        var methods = type.Members.OfType<MethodDeclarationSyntax>().Where(m => m.Identifier.ValueText is var n && (n == before || n == after)).ToList();
        var last = methods.Count > 0 ? methods.MaxBy(m => m.SpanStart)! : type.Members.Last();
        var indent = last.GetLeadingTrivia().LastOrDefault(t => t.IsKind(SyntaxKind.WhitespaceTrivia)).ToString();
        var unit = indent.Length > 0 && indent.All(c => c == '\t') ? "\t" : "    ";
        var beforeMethod = methods.FirstOrDefault(m => m.Identifier.ValueText == before);
        var contextType = beforeMethod?.ParameterList.Parameters.FirstOrDefault()?.Type?.WithoutTrivia().ToString() ?? Before.Replace("On", "", StringComparison.Ordinal) + "Context";
        var configure = configureAwait ? ".ConfigureAwait(false)" : "";
        var callBefore = awaitBefore ? $"await {before}(context){configure};" : $"{before}(context);";
        var text = $"{newline}{indent}public async {task} {Method}({contextType} context, {Delegate} next){newline}"
            + $"{indent}{{{newline}"
            + $"{indent}{unit}{callBefore}{newline}"
            + $"{indent}{unit}if (context.Result is null){newline}"
            + $"{indent}{unit}{{{newline}"
            + $"{indent}{unit}{unit}{(awaitAfter ? "await " : "")}{after}(await next(){configure}){(awaitAfter ? configure : "")};{newline}"
            + $"{indent}{unit}}}{newline}"
            + $"{indent}}}{newline}";
        var member = (MethodDeclarationSyntax)SyntaxFactory.ParseMemberDeclaration(text)!;
        return type.WithMembers(type.Members.Insert(type.Members.IndexOf(last) + 1, member));
    }

    /// <summary>What the report says.</summary>
    public string Description(string type) => $"{type}: {Interface} → {AsyncInterface} ({Method} runs {Before}, then the rest of the pipeline unless it set a result, then {After})";

    private static string Rightmost(TypeSyntax type) => type switch
    {
        QualifiedNameSyntax q => q.Right.Identifier.ValueText,
        AliasQualifiedNameSyntax a => a.Name.Identifier.ValueText,
        SimpleNameSyntax s => s.Identifier.ValueText,
        _ => type.ToString(),
    };
}
