using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Blocking;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// The conventional routes an app maps for its controllers without attribute routes: <c>MapControllerRoute(name,
/// pattern, defaults)</c>, <c>MapDefaultControllerRoute()</c> (<c>{controller=Home}/{action=Index}/{id?}</c>) and
/// <c>MapAreaControllerRoute(name, areaName, pattern)</c>, with the pattern's text on the app's default path
/// (<see cref="RouteStrings"/>: endpoint providers build it from a prefix) and the controller, action and area a
/// <c>new { controller = "Account", action = "Login" }</c> default pins the route to.
/// </summary>
internal static class ConventionalRoutes
{
    /// <summary>ASP.NET Core's pattern of <c>MapDefaultControllerRoute</c>.</summary>
    public const string DefaultPattern = "{controller=Home}/{action=Index}/{id?}";

    public static IReadOnlyList<ConventionalRoute> Find(Sites sites, IArgumentSource callers)
    {
        var routes = new List<ConventionalRoute>();
        foreach (var name in new[] { "MapControllerRoute", "MapDefaultControllerRoute", "MapAreaControllerRoute" })
        {
            foreach (var (call, body) in sites.Invocations(name))
            {
                if (!Ops.NameOf(call.TargetMethod.ContainingType).StartsWith("Microsoft.AspNetCore.Builder.", StringComparison.Ordinal))
                {
                    continue;
                }
                var pattern = name == "MapDefaultControllerRoute" ? DefaultPattern : RouteStrings.Value(Registrations.Argument(call, "pattern"), body, callers);
                var defaults = Defaults(Registrations.Argument(call, "defaults"));
                var area = name == "MapAreaControllerRoute" ? RouteStrings.Value(Registrations.Argument(call, "areaName"), body, callers) : defaults.GetValueOrDefault("area");
                if (pattern is not null && (name != "MapAreaControllerRoute" || area is not null))
                {
                    routes.Add(new ConventionalRoute(pattern, area, defaults.GetValueOrDefault("controller"), defaults.GetValueOrDefault("action")));
                }
            }
        }
        return [.. routes.Distinct()];
    }

    // The constant route values of an anonymous object (new { controller = "Home", action = "Index" }).
    private static Dictionary<string, string> Defaults(IOperation? argument)
    {
        var values = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        if (Ops.Unwrap(argument) is IAnonymousObjectCreationOperation created)
        {
            foreach (var assignment in created.Initializers.OfType<ISimpleAssignmentOperation>())
            {
                if (assignment.Target is IPropertyReferenceOperation property && assignment.Value.ConstantValue is { HasValue: true, Value: string value })
                {
                    values[property.Property.Name] = value;
                }
            }
        }
        return values;
    }
}
