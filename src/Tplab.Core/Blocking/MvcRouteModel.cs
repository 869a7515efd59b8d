namespace Tplab.Blocking;

/// <summary>An MVC action's endpoint: one HTTP method (<see cref="AspNetVocabulary.AnyMethod"/> when any) and its route (<c>/api/v2/orders/{id}</c>).</summary>
/// <param name="Conventional">True when no attribute route applies and the route comes from a conventional route.</param>
public sealed record MvcRoute(string Method, string Route, bool Conventional);

/// <summary>
/// A conventional route the app maps (<c>MapControllerRoute</c>, <c>MapDefaultControllerRoute</c>,
/// <c>MapAreaControllerRoute</c>): its pattern, for an area route its area, and the controller and action its defaults
/// pin it to when the pattern has no <c>{controller}</c> or <c>{action}</c> (<c>"login/", new { controller = "Account",
/// action = "Login" }</c>).
/// </summary>
public sealed record ConventionalRoute(string Pattern, string? Area, string? Controller = null, string? Action = null);

/// <summary>
/// MVC's routes for an action, by ASP.NET Core's own rules (DefaultApplicationModelProvider, ActionAttributeRouteModel,
/// AttributeRouteModel), for scan and diagnose alike: the route attributes of the nearest level that has any (a
/// derived class or override replaces its base's), one selector per attribute that defines a route and one for the
/// silent verbs (<c>[HttpGet]</c>) unless a plain route attribute takes them, every controller selector crossed with
/// every action selector, templates combined (<c>/</c> and <c>~/</c> override the controller's), the
/// <c>[controller]</c>/<c>[action]</c>/<c>[area]</c> tokens replaced (controller name less <c>Controller</c>, action name
/// less <c>Async</c> as <c>SuppressAsyncSuffixInActionNames</c> does by default, <c>[ActionName]</c> first), and
/// conventional routes where neither level has an attribute route.
/// </summary>
public static class MvcRouteModel
{
    /// <summary>What stands for a part of a route that the code computes in a way the reader cannot follow.</summary>
    public const string UnknownPart = "(unknown)";

    /// <summary>
    /// The routes of <paramref name="action"/> on <paramref name="controller"/> (the concrete controller: an inherited
    /// action gets each subclass's routes), one per HTTP method; empty for a <c>[NonAction]</c> method.
    /// </summary>
    public static IReadOnlyList<MvcRoute> Routes(RoutedMember controller, RoutedMember action, IReadOnlyList<ConventionalRoute>? conventional = null)
    {
        ArgumentNullException.ThrowIfNull(controller);
        ArgumentNullException.ThrowIfNull(action);
        var controllerAttributes = Effective(controller.Levels);
        var actionAttributes = Effective(action.Levels);
        if (actionAttributes.Any(a => a.NonAction))
        {
            return [];
        }
        var values = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase)
        {
            ["controller"] = ControllerName(controller.Name),
            ["action"] = actionAttributes.Where(a => a.ActionName is { Known: false } or { Value: string }).Select(a => a.ActionName).ToList() is [var named, ..]
                ? named.Known ? named.Text! : UnknownPart
                : ActionName(action.Name),
        };
        foreach (var provider in controllerAttributes.Concat(actionAttributes).Where(a => a.RouteKey is not null))
        {
            values[provider.RouteKey!] = provider.RouteValue.Known ? provider.RouteValue.Text ?? "" : UnknownPart;
        }
        var routes = new List<MvcRoute>();
        foreach (var a in Selectors(actionAttributes))
        {
            foreach (var c in Selectors(controllerAttributes))
            {
                var methods = Methods(c.Methods, a.Methods);
                if (a.Template is null && c.Template is null)
                {
                    foreach (var pattern in Conventional(conventional ?? [], values))
                    {
                        routes.AddRange(methods.Select(m => new MvcRoute(m, "/" + RouteTemplates.FillConventional(pattern, values), Conventional: true)));
                    }
                    continue;
                }
                var template = RouteTemplates.Combine(c.Template, a.Template);
                routes.AddRange(methods.Select(m => new MvcRoute(m, "/" + RouteTemplates.ReplaceTokens(template ?? "", values), Conventional: false)));
            }
        }
        return [.. routes.Distinct()];
    }

    /// <summary><c>OrdersController</c> → <c>Orders</c> (any case of the suffix, as MVC strips it): the <c>[controller]</c> value.</summary>
    public static string ControllerName(string typeName) =>
        typeName.Length > "Controller".Length && typeName.EndsWith("Controller", StringComparison.OrdinalIgnoreCase) ? typeName[..^"Controller".Length] : typeName;

    /// <summary><c>GetOrdersAsync</c> → <c>GetOrders</c>: the <c>[action]</c> value without <c>[ActionName]</c>.</summary>
    public static string ActionName(string methodName) =>
        methodName.Length > "Async".Length && methodName.EndsWith("Async", StringComparison.Ordinal) ? methodName[..^"Async".Length] : methodName;

    // The route providers of the nearest level with any (an override or a derived class replaces its base's), and every
    // other attribute of every level (inherited).
    private static List<RoutingMeaning> Effective(IReadOnlyList<IReadOnlyList<RoutingAttribute>> levels)
    {
        var meanings = levels.Select(l => l.Select(RoutingMeaning.Of).ToList()).ToList();
        var routeLevel = meanings.FindIndex(l => l.Any(m => m.TemplateProvider));
        var result = new List<RoutingMeaning>();
        for (var i = 0; i < meanings.Count; i++)
        {
            result.AddRange(meanings[i].Where(m => !m.TemplateProvider || i == routeLevel));
        }
        // A route value or an action name given at several levels: the nearest wins.
        return [.. result.Where((m, i) => m.RouteKey is null || result.FindIndex(o => string.Equals(o.RouteKey, m.RouteKey, StringComparison.OrdinalIgnoreCase)) == i)];
    }

    private sealed record Selector(string? Template, IReadOnlyList<string>? Methods);

    // DefaultApplicationModelProvider.CreateSelectors: a selector per provider that defines a route, with the silent
    // verb providers when it is not itself a verb provider; one more for the silent ones unless a plain route took them.
    private static List<Selector> Selectors(List<RoutingMeaning> attributes)
    {
        var defining = attributes.Where(a => a.TemplateProvider && !a.Silent).ToList();
        var silentSelector = attributes.Any(a => a.Silent) && defining.All(d => d.MethodProvider);
        if (defining.Count == 0 && !silentSelector)
        {
            return [new Selector(null, VerbsOf(attributes))];
        }
        var selectors = new List<Selector>();
        foreach (var d in defining)
        {
            var others = attributes.Where(a => !defining.Contains(a) && !(d.MethodProvider && a.MethodProvider));
            selectors.Add(new Selector(d.Template.Known ? d.Template.Text ?? "" : MvcRouteModel.UnknownPart, VerbsOf([d, .. others])));
        }
        if (silentSelector)
        {
            selectors.Add(new Selector(null, VerbsOf([.. attributes.Where(a => !defining.Contains(a))])));
        }
        return selectors;
    }

    // The verbs of the method providers, upper case, each once; null when none (any method); a provider that cannot be read says unknown.
    private static IReadOnlyList<string>? VerbsOf(IEnumerable<RoutingMeaning> attributes)
    {
        var providers = attributes.Where(a => a.MethodProvider).ToList();
        if (providers.Count == 0)
        {
            return null;
        }
        var verbs = providers.SelectMany(p => p.Methods.Known ? p.Methods.Texts.Select(t => t.ToUpperInvariant()) : [UnknownPart]).Distinct(StringComparer.Ordinal).ToList();
        return verbs.Count == 0 ? null : verbs;
    }

    // Both levels' method constraints must hold: the action's, narrowed by the controller's.
    private static IReadOnlyList<string> Methods(IReadOnlyList<string>? controller, IReadOnlyList<string>? action) =>
        (controller, action) switch
        {
            (null, null) => [AspNetVocabulary.AnyMethod],
            (null, { } a) => a,
            ({ } c, null) => c,
            ({ } c, { } a) => [.. a.Where(c.Contains)],
        };

    // The app's conventional routes that can reach an action, as MVC matches a route's required values: an area's
    // routes for a controller in that area, the others otherwise; the controller and the action each a parameter of
    // the pattern or the value the route's defaults pin (a route pinned to another action never reaches this one).
    // None known (or none fits): {controller}/{action}, with {area} in front for an area's controller.
    private static IEnumerable<string> Conventional(IReadOnlyList<ConventionalRoute> routes, IReadOnlyDictionary<string, string> values)
    {
        var area = values.GetValueOrDefault("area");
        var fitting = routes.Where(r => area is null
                ? r.Area is null && !RouteTemplates.HasParameter(r.Pattern, "area")
                : string.Equals(r.Area, area, StringComparison.OrdinalIgnoreCase) || (r.Area is null && RouteTemplates.HasParameter(r.Pattern, "area")))
            .Where(r => Reaches(r, "controller", r.Controller, values) && Reaches(r, "action", r.Action, values))
            .Select(r => r.Pattern).Distinct(StringComparer.Ordinal).ToList();
        return fitting.Count > 0 ? fitting : [area is null ? "{controller}/{action}" : "{area}/{controller}/{action}"];
    }

    private static bool Reaches(ConventionalRoute route, string key, string? pinned, IReadOnlyDictionary<string, string> values) =>
        RouteTemplates.HasParameter(route.Pattern, key) || string.Equals(pinned, values.GetValueOrDefault(key), StringComparison.OrdinalIgnoreCase);
}
