using Microsoft.CodeAnalysis.Operations;
using Tplab.Blocking;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// The conventional routes an app maps for its controllers without attribute routes: <c>MapControllerRoute(name,
/// pattern)</c>, <c>MapDefaultControllerRoute()</c> (<c>{controller=Home}/{action=Index}/{id?}</c>) and
/// <c>MapAreaControllerRoute(name, areaName, pattern)</c>, with constant patterns.
/// </summary>
internal static class ConventionalRoutes
{
    /// <summary>ASP.NET Core's pattern of <c>MapDefaultControllerRoute</c>.</summary>
    public const string DefaultPattern = "{controller=Home}/{action=Index}/{id?}";

    public static IReadOnlyList<ConventionalRoute> Find(Sites sites)
    {
        var routes = new List<ConventionalRoute>();
        foreach (var name in new[] { "MapControllerRoute", "MapDefaultControllerRoute", "MapAreaControllerRoute" })
        {
            foreach (var (call, _) in sites.Invocations(name))
            {
                if (!Ops.NameOf(call.TargetMethod.ContainingType).StartsWith("Microsoft.AspNetCore.Builder.", StringComparison.Ordinal))
                {
                    continue;
                }
                var pattern = name == "MapDefaultControllerRoute" ? DefaultPattern : Constant(call, "pattern");
                var area = name == "MapAreaControllerRoute" ? Constant(call, "areaName") : null;
                if (pattern is not null && (name != "MapAreaControllerRoute" || area is not null))
                {
                    routes.Add(new ConventionalRoute(pattern, area));
                }
            }
        }
        return [.. routes.Distinct()];
    }

    private static string? Constant(IInvocationOperation call, string parameter) =>
        Registrations.Argument(call, parameter)?.ConstantValue is { HasValue: true, Value: string s } ? s : null;
}
