using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// MVC and Razor Pages entry points as ASP.NET Core routes them: controller actions with the routes of the one route
/// model (<see cref="MvcRouteModel"/>, read through <see cref="SourceRouting"/>); page handlers
/// <c>On{Verb}[Handler][Async]</c> at the page's path and <c>@page</c> template.
/// </summary>
internal static partial class MvcRoots
{
    private const string Mvc = "Microsoft.AspNetCore.Mvc.";

    /// <summary>ASP.NET Core's own rule for a controller (<see cref="MvcTypes.IsController"/>).</summary>
    public static bool IsController(INamedTypeSymbol type) => MvcTypes.IsController(type);

    public static bool IsPageModel(INamedTypeSymbol type) =>
        type is { TypeKind: TypeKind.Class, IsAbstract: false } && Ops.IsOrDerives(type, Mvc + "RazorPages.PageModel");

    /// <summary>
    /// The actions of the concrete controller <paramref name="controller"/>, its own and those it inherits, each with
    /// the routes <see cref="MvcRouteModel"/> gives it on this controller: an inherited action is an entry point of each
    /// controller that inherits it.
    /// </summary>
    public static IEnumerable<EntryPoint> Actions(INamedTypeSymbol controller, SourceIndex index, SourceRouting routing, IReadOnlyList<ConventionalRoute> conventional)
    {
        var controllerFacts = routing.Controller(controller);
        foreach (var action in ActionMethods(controller))
        {
            if (index.NodeFor(action) is not { } node)
            {
                continue;
            }
            foreach (var route in MvcRouteModel.Routes(controllerFacts, routing.Action(action), conventional))
            {
                yield return new EntryPoint(node, CodePlace.MvcAction, new HttpEndpoint(route.Method, route.Route)) { Controller = controller };
            }
        }
    }

    public static IEnumerable<EntryPoint> PageHandlers(INamedTypeSymbol page, SourceIndex index)
    {
        var path = page.DeclaringSyntaxReferences.Select(r => r.SyntaxTree.FilePath).FirstOrDefault(p => p.EndsWith(".cshtml.cs", StringComparison.OrdinalIgnoreCase));
        var route = path is null ? "/" + StripSuffix(page.Name, "Model") : PageRoute(path, index);
        foreach (var method in page.GetMembers().OfType<IMethodSymbol>().Where(m => m.MethodKind == MethodKind.Ordinary && !m.IsStatic && m.DeclaredAccessibility == Accessibility.Public))
        {
            var match = Handler().Match(method.Name);
            if (!match.Success || index.NodeFor(method) is not { } node)
            {
                continue;
            }
            var handler = match.Groups[2].Value;
            yield return new EntryPoint(node, CodePlace.RazorPage,
                new HttpEndpoint(match.Groups[1].Value.ToUpperInvariant(), handler.Length > 0 ? $"{route}?handler={handler}" : route));
        }
    }

    /// <summary>The attributes of a symbol, with a class's base classes' (for inherited attributes like [Route]).</summary>
    public static IEnumerable<AttributeData> Attributes(ISymbol symbol, bool inherit) => MvcTypes.Attributes(symbol, inherit);

    public static bool HasAttribute(ISymbol symbol, string name, bool inherit) => MvcTypes.HasAttribute(symbol, name, inherit);

    public static string Name(AttributeData attribute) => MvcTypes.Name(attribute);

    /// <summary>Public instance methods that MVC treats as actions, the controller's own and its source base classes'.</summary>
    private static IEnumerable<IMethodSymbol> ActionMethods(INamedTypeSymbol controller)
    {
        var seen = new HashSet<string>(StringComparer.Ordinal);
        for (var t = controller; t is not null && !SymbolNames.MetadataName(t).StartsWith(Mvc, StringComparison.Ordinal) && t.SpecialType != SpecialType.System_Object; t = t.BaseType)
        {
            foreach (var m in t.GetMembers().OfType<IMethodSymbol>())
            {
                if (m is { MethodKind: MethodKind.Ordinary, IsStatic: false, IsAbstract: false, DeclaredAccessibility: Accessibility.Public, IsGenericMethod: false }
                    && !m.GetAttributes().Any(a => Name(a) == Mvc + "NonActionAttribute")
                    && m.Name != "Dispose" && seen.Add(m.Name + "/" + m.Parameters.Length))
                {
                    yield return m;
                }
            }
        }
    }

    // Pages/Orders/Edit.cshtml.cs → /Orders/Edit, Pages/Index → /, Areas/Admin/Pages/Users/Index → /Admin/Users; plus the @page template.
    private static string PageRoute(string codeBehind, SourceIndex index)
    {
        var parts = codeBehind.Replace('\\', '/').Split('/');
        var pages = Array.LastIndexOf(parts, "Pages");
        var segments = pages < 0 ? [parts[^1]] : parts.Skip(pages + 1).ToList();
        segments[^1] = segments[^1][..^".cshtml.cs".Length];
        if (segments[^1] == "Index")
        {
            segments.RemoveAt(segments.Count - 1);
        }
        var areas = Array.LastIndexOf(parts, "Areas");
        if (areas >= 0 && areas + 1 < parts.Length && areas < pages)
        {
            segments.Insert(0, parts[areas + 1]);
        }
        var route = "/" + string.Join('/', segments);
        var view = codeBehind[..^3];
        var template = index.OtherFile(view) is { } lines ? PageDirective().Match(string.Join('\n', lines.Take(5))) : Match.Empty;
        if (template.Success && template.Groups[1].Value is { Length: > 0 } t)
        {
            return t.StartsWith('/') ? t : RoutePrefixes.Join(route, t);
        }
        return route;
    }

    private static string StripSuffix(string name, string suffix) =>
        name.Length > suffix.Length && name.EndsWith(suffix, StringComparison.Ordinal) ? name[..^suffix.Length] : name;

    private static readonly Regex HandlerPattern = new("^On(Get|Post|Put|Delete|Patch|Head)(.*?)(Async)?$", RegexOptions.CultureInvariant);
    private static readonly Regex PageDirectivePattern = new("@page\\s+\"([^\"]*)\"", RegexOptions.CultureInvariant);

    private static Regex Handler() => HandlerPattern;

    private static Regex PageDirective() => PageDirectivePattern;
}
