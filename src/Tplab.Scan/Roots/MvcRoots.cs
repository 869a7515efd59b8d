using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// MVC and Razor Pages entry points as ASP.NET Core routes them: controller actions with controller-level and action
/// routes, <c>[Http*]</c> templates, areas and the <c>[controller]</c>/<c>[action]</c>/<c>[area]</c> tokens (conventional
/// <c>/{controller}/{action}</c> otherwise); page handlers <c>On{Verb}[Handler][Async]</c> at the page's path and
/// <c>@page</c> template.
/// </summary>
internal static partial class MvcRoots
{
    private const string Mvc = "Microsoft.AspNetCore.Mvc.";

    /// <summary>ASP.NET Core's own rule for a controller (<see cref="MvcTypes.IsController"/>).</summary>
    public static bool IsController(INamedTypeSymbol type) => MvcTypes.IsController(type);

    public static bool IsPageModel(INamedTypeSymbol type) =>
        type is { TypeKind: TypeKind.Class, IsAbstract: false } && Ops.IsOrDerives(type, Mvc + "RazorPages.PageModel");

    public static IEnumerable<EntryPoint> Actions(INamedTypeSymbol controller, SourceIndex index)
    {
        var controllerName = StripSuffix(controller.Name, "Controller");
        var area = Attributes(controller, inherit: true).Where(a => Name(a) == Mvc + "AreaAttribute").Select(a => a.ConstructorArguments.FirstOrDefault().Value as string).FirstOrDefault();
        var controllerRoutes = Attributes(controller, inherit: true).Where(a => IsRouteAttribute(a)).Select(Template).ToList();
        foreach (var action in ActionMethods(controller))
        {
            if (index.NodeFor(action) is not { } node)
            {
                continue;
            }
            var actionName = StripSuffix(action.Name, "Async");
            var routes = new List<(string Verb, string? Template)>();
            foreach (var attribute in action.GetAttributes())
            {
                var name = Name(attribute);
                if (name.StartsWith(Mvc, StringComparison.Ordinal) && name != Mvc + "RouteAttribute" && AspNetVocabulary.AttributeVerb(name[Mvc.Length..]) is { } verb)
                {
                    routes.Add((verb, Template(attribute)));
                }
                else if (name == Mvc + "AcceptVerbsAttribute")
                {
                    var verbs = attribute.ConstructorArguments.SelectMany(a => a.Kind == TypedConstantKind.Array ? a.Values : [a]).Select(v => v.Value as string).OfType<string>();
                    var template = attribute.NamedArguments.FirstOrDefault(n => n.Key == "Route").Value.Value as string;
                    routes.AddRange(verbs.Select(v => (v.ToUpperInvariant(), template)));
                }
                else if (IsRouteAttribute(attribute))
                {
                    routes.Add((AspNetVocabulary.AnyMethod, Template(attribute)));
                }
            }
            // [Route] on the action and [HttpGet] without a template on the same action: one route, that verb.
            if (routes.Count > 1 && routes.Any(r => r.Verb == AspNetVocabulary.AnyMethod && r.Template is not null) && routes.Any(r => r.Verb != AspNetVocabulary.AnyMethod && r.Template is null))
            {
                var template = routes.First(r => r.Verb == AspNetVocabulary.AnyMethod).Template;
                routes = [.. routes.Where(r => r.Verb != AspNetVocabulary.AnyMethod).Select(r => (r.Verb, r.Template ?? template))];
            }
            if (routes.Count == 0)
            {
                routes.Add((AspNetVocabulary.AnyMethod, null));
            }
            foreach (var (verb, template) in routes)
            {
                foreach (var route in Combine(controllerRoutes, template, area))
                {
                    var text = Tokens(route, controllerName, actionName, area);
                    yield return new EntryPoint(node, CodePlace.MvcAction, new HttpEndpoint(verb, text));
                }
            }
        }
    }

    public static IEnumerable<EntryPoint> PageHandlers(INamedTypeSymbol page, SourceIndex index)
    {
        var path = page.DeclaringSyntaxReferences.Select(r => r.SyntaxTree.FilePath).FirstOrDefault(p => p.EndsWith(".cshtml.cs", StringComparison.OrdinalIgnoreCase));
        var route = path is null ? "/" + StripSuffix(page.Name, "Model") : PageRoute(path);
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

    private static IEnumerable<string> Combine(IReadOnlyList<string?> controllerRoutes, string? actionTemplate, string? area)
    {
        if (actionTemplate is not null && (actionTemplate.StartsWith('/') || actionTemplate.StartsWith("~/", StringComparison.Ordinal)))
        {
            yield return RoutePrefixes.Join("", actionTemplate);
            yield break;
        }
        if (controllerRoutes.Count == 0)
        {
            // Conventional routing: {area}/{controller}/{action}, or the action's own template after the controller.
            yield return actionTemplate is null
                ? RoutePrefixes.Join(area is null ? "" : "[area]", "[controller]/[action]")
                : RoutePrefixes.Join("", actionTemplate);
            yield break;
        }
        foreach (var c in controllerRoutes)
        {
            yield return RoutePrefixes.Join(c ?? "", actionTemplate ?? "");
        }
    }

    private static string Tokens(string route, string controller, string action, string? area) =>
        AspNetVocabulary.ReplaceTokens(route, controller, action, area);

    private static bool IsRouteAttribute(AttributeData a) => Name(a) == Mvc + "RouteAttribute";

    private static string? Template(AttributeData a) =>
        a.ConstructorArguments.FirstOrDefault(c => c.Value is string).Value as string;

    // Pages/Orders/Edit.cshtml.cs → /Orders/Edit, Pages/Index → /, Areas/Admin/Pages/Users/Index → /Admin/Users; plus the @page template.
    private static string PageRoute(string codeBehind)
    {
        var parts = codeBehind.Replace('\\', '/').Split('/');
        var pages = Array.LastIndexOf(parts, "Pages");
        var segments = pages < 0 ? [parts[^1]] : parts[(pages + 1)..].ToList();
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
        var template = File.Exists(view) ? PageDirective().Match(string.Join('\n', File.ReadLines(view).Take(5))) : Match.Empty;
        if (template.Success && template.Groups[1].Value is { Length: > 0 } t)
        {
            return t.StartsWith('/') ? t : RoutePrefixes.Join(route, t);
        }
        return route;
    }

    private static string StripSuffix(string name, string suffix) =>
        name.Length > suffix.Length && name.EndsWith(suffix, StringComparison.Ordinal) ? name[..^suffix.Length] : name;

    [GeneratedRegex("^On(Get|Post|Put|Delete|Patch|Head)(.*?)(Async)?$")]
    private static partial Regex Handler();

    [GeneratedRegex("@page\\s+\"([^\"]*)\"")]
    private static partial Regex PageDirective();
}
