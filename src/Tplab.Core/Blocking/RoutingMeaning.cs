namespace Tplab.Blocking;

/// <summary>
/// What one <see cref="RoutingAttribute"/> is to MVC, through the interfaces MVC asks for
/// (<c>IRouteTemplateProvider</c>, <c>IActionHttpMethodProvider</c>, <c>IRouteValueProvider</c>) and the two attributes it
/// reads by type (<c>[ActionName]</c>, <c>[NonAction]</c>). ASP.NET Core's own attributes are known by what their
/// constructors do with their arguments; an app's own class that derives from one is read through it; an app's own class
/// that implements an interface itself is read through the properties the reader could evaluate, else unknown.
/// </summary>
internal sealed record RoutingMeaning(
    bool TemplateProvider,
    AttributeValue Template,
    AttributeValue Order,
    AttributeValue Name,
    bool MethodProvider,
    AttributeValue Methods,
    string? RouteKey,
    AttributeValue RouteValue,
    AttributeValue ActionName,
    bool NonAction)
{
    private const string Mvc = "Microsoft.AspNetCore.Mvc.";
    private const string TemplateProviderInterface = Mvc + "Routing.IRouteTemplateProvider";
    private const string MethodProviderInterface = Mvc + "Routing.IActionHttpMethodProvider";
    private const string RouteValueProviderInterface = Mvc + "Routing.IRouteValueProvider";

    /// <summary><c>Template</c>, <c>Order</c> and <c>Name</c> all null: a provider that defines no route (<c>[HttpGet]</c>).</summary>
    public bool Silent => TemplateProvider && Template is { Known: true, Value: null } && Order is { Known: true, Value: null } && Name is { Known: true, Value: null };

    private static readonly RoutingMeaning None = new(false, AttributeValue.Null, AttributeValue.Null, AttributeValue.Null, false, AttributeValue.Null, null, AttributeValue.Null, AttributeValue.Null, false);

    public static RoutingMeaning Of(RoutingAttribute a)
    {
        var order = a.Property("Order");
        var name = a.Property("Name");
        switch (a.Framework)
        {
            case Mvc + "RouteAttribute":
                return None with { TemplateProvider = true, Template = a.Argument(0), Order = order, Name = name };
            case Mvc + "Routing.HttpMethodAttribute":
                return None with { TemplateProvider = true, Template = a.Argument(1), Order = order, Name = name, MethodProvider = true, Methods = a.Argument(0) };
            case Mvc + "AcceptVerbsAttribute":
                return None with { TemplateProvider = true, Template = a.Property("Route"), Order = order, Name = name, MethodProvider = true, Methods = a.Argument(0) };
            case Mvc + "AreaAttribute":
                return None with { RouteKey = "area", RouteValue = a.Argument(0) };
            case Mvc + "RouteValueAttribute":
                return a.Argument(0).Text is { } key ? None with { RouteKey = key, RouteValue = a.Argument(1) } : None;
            case Mvc + "ActionNameAttribute":
                return None with { ActionName = a.Argument(0) };
            case Mvc + "NonActionAttribute":
                return None with { NonAction = true };
            case { } framework when framework.StartsWith(Mvc, StringComparison.Ordinal) && HttpVerbAttribute(framework) is { } verb:
                // [HttpGet], [HttpPost("x")], ...: HttpMethodAttribute with a fixed verb and the template as argument.
                return None with { TemplateProvider = true, Template = a.Argument(0), Order = order, Name = name, MethodProvider = true, Methods = new AttributeValue(new[] { verb }) };
        }
        // The app's own attribute implementing the interfaces itself: what its properties say, where the reader could tell.
        var meaning = None;
        if (a.Interfaces.Contains(TemplateProviderInterface))
        {
            meaning = meaning with { TemplateProvider = true, Template = Evaluated(a, "Template"), Order = order, Name = name };
        }
        if (a.Interfaces.Contains(MethodProviderInterface))
        {
            meaning = meaning with { MethodProvider = true, Methods = Evaluated(a, "HttpMethods") };
        }
        if (a.Interfaces.Contains(RouteValueProviderInterface) && a.Property("RouteKey").Text is { } routeKey)
        {
            meaning = meaning with { RouteKey = routeKey, RouteValue = Evaluated(a, "RouteValue") };
        }
        return meaning;
    }

    /// <summary>The verb of ASP.NET Core's <c>[HttpX]</c> attribute classes (<c>Microsoft.AspNetCore.Mvc.HttpGetAttribute</c>), null for others.</summary>
    public static string? HttpVerbAttribute(string framework) => framework[(framework.LastIndexOf('.') + 1)..] switch
    {
        "HttpGetAttribute" => "GET",
        "HttpPostAttribute" => "POST",
        "HttpPutAttribute" => "PUT",
        "HttpDeleteAttribute" => "DELETE",
        "HttpPatchAttribute" => "PATCH",
        "HttpHeadAttribute" => "HEAD",
        "HttpOptionsAttribute" => "OPTIONS",
        _ => null,
    };

    private static AttributeValue Evaluated(RoutingAttribute a, string property) =>
        a.Properties.TryGetValue(property, out var value) ? value : AttributeValue.Unknown;
}
