using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Fix.Editing;

/// <summary>
/// The names a fix gives: a changed method gets the <c>Async</c> suffix when the solution's convention says so (most
/// of its task-returning methods have it) or <c>--rename async</c>; never an endpoint (its name is part of its route,
/// hub or gRPC contract), except a middleware's <c>Invoke</c>, which ASP.NET Core also finds as <c>InvokeAsync</c>;
/// never where the new name is taken.
/// </summary>
internal sealed class FixNaming(RenameMode mode, bool suffixConvention, IReadOnlySet<string> rootKeys, string root)
{
    /// <summary>
    /// Whether the solution suffixes: more of its task-returning methods end in Async than not (none: yes, the .NET
    /// guideline). Endpoints do not vote: an action's, a page handler's or a hub method's name is a route or a contract,
    /// and teams that suffix their own methods still write <c>public async Task&lt;IActionResult&gt; Get()</c>.
    /// </summary>
    public static async Task<bool> ConventionAsync(Solution solution, CancellationToken cancellationToken)
    {
        int suffixed = 0, plain = 0;
        foreach (var document in solution.Projects.SelectMany(p => p.Documents))
        {
            var syntax = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
            foreach (var method in syntax!.DescendantNodes().OfType<MethodDeclarationSyntax>())
            {
                var type = method.ReturnType.ToString();
                if ((type.StartsWith("Task", StringComparison.Ordinal) || type.StartsWith("ValueTask", StringComparison.Ordinal)) && method.Identifier.ValueText != "Main" && !IsEndpoint(method))
                {
                    _ = method.Identifier.ValueText.EndsWith("Async", StringComparison.Ordinal) ? suffixed++ : plain++;
                }
            }
        }
        return suffixed >= plain;
    }

    // By its declaration (the vote reads syntax only): a public method of a controller, page model or hub, a method
    // with an [Http…]/[Route] attribute, a middleware's Invoke.
    private static bool IsEndpoint(MethodDeclarationSyntax method)
    {
        if (method.Identifier.ValueText is "Invoke" or "InvokeAsync"
            || method.AttributeLists.SelectMany(l => l.Attributes).Any(a => a.Name.ToString() is var n && (n.StartsWith("Http", StringComparison.Ordinal) || n is "Route" or "AcceptVerbs")))
        {
            return true;
        }
        if (method.Parent is not ClassDeclarationSyntax type || !method.Modifiers.Any(Microsoft.CodeAnalysis.CSharp.SyntaxKind.PublicKeyword))
        {
            return false;
        }
        var bases = type.BaseList?.Types.Select(b => b.Type.ToString()) ?? [];
        return type.Identifier.ValueText.EndsWith("Controller", StringComparison.Ordinal)
            || type.AttributeLists.SelectMany(l => l.Attributes).Any(a => a.Name.ToString() is "ApiController" or "Controller")
            || bases.Any(b => b is "Controller" or "ControllerBase" or "PageModel" or "Hub" || b.StartsWith("Hub<", StringComparison.Ordinal));
    }

    public bool Suffixes => mode == RenameMode.Async || (mode == RenameMode.Auto && suffixConvention);

    /// <summary>The family's new name, or null to keep it.</summary>
    public string? NewName(IReadOnlyList<IMethodSymbol> family)
    {
        var name = family[0].Name;
        if (!Suffixes || name.EndsWith("Async", StringComparison.Ordinal))
        {
            return null;
        }
        if (family.Any(m => rootKeys.Contains(SymbolNames.Key(m))) && name != "Invoke")
        {
            return null;
        }
        var newName = name + "Async";
        for (var i = 0; i < family.Count; i++)
        {
            for (var t = family[i].ContainingType; t is not null; t = t.BaseType)
            {
                if (!t.GetMembers(newName).IsEmpty)
                {
                    return null;
                }
            }
        }
        return newName;
    }

    /// <summary>Whether a member of the family is one of scan's entry points (an action, handler, hub or gRPC method, middleware).</summary>
    public bool IsEndpoint(IReadOnlyList<IMethodSymbol> family) => family.Any(m => rootKeys.Contains(SymbolNames.Key(m)));

    /// <summary>A path relative to the fixed root, with '/'.</summary>
    public string Relative(string? path) =>
        path is null ? "?" : Path.GetRelativePath(root, path).Replace('\\', '/');
}
