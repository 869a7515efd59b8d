namespace Tplab.Diagnose.Code;

/// <summary>
/// What the application's types are to ASP.NET Core and the host, read from their metadata: hosted services,
/// controllers and page models (through the application's own base types), and an action's attribute route.
/// </summary>
internal sealed class TypeRoles(AssemblyIndex index)
{
    private readonly MetadataRouting _routing = new(index);

    private static readonly string[] HostedServiceBases =
    [
        "Microsoft.Extensions.Hosting.BackgroundService", "Microsoft.Extensions.Hosting.IHostedService", "Microsoft.Extensions.Hosting.IHostedLifecycleService",
    ];

    private static readonly string[] ControllerBases = ["Microsoft.AspNetCore.Mvc.ControllerBase", "Microsoft.AspNetCore.Mvc.Controller"];

    private static readonly string[] PageBases = ["Microsoft.AspNetCore.Mvc.RazorPages.PageModel", "Microsoft.AspNetCore.Mvc.RazorPages.Page"];

    /// <summary>
    /// True when the application type <paramref name="typeName"/> is a hosted service: it derives, through application
    /// types, from <c>BackgroundService</c>, or implements <c>IHostedService</c>.
    /// </summary>
    public bool IsHostedService(string typeName) => Derives(typeName, HostedServiceBases);

    /// <summary>
    /// The methods an MVC action (<paramref name="page"/> false) or Razor Page handler (true) can be: the methods written
    /// in application types that derive from <c>ControllerBase</c> (or <c>PageModel</c>), compiler-generated ones aside.
    /// </summary>
    public IEnumerable<(string Type, string Method)> ActionCandidates(bool page) =>
        index.MethodKeys
            .Select(k => (Type: k[..k.LastIndexOf('.')], Method: k[(k.LastIndexOf('.') + 1)..]))
            .Where(m => !m.Method.StartsWith('<') && !m.Method.StartsWith('.') && !m.Type.Contains('<', StringComparison.Ordinal)
                && Derives(m.Type, page ? PageBases : ControllerBases));

    /// <summary>True when <paramref name="typeName"/> is, derives from or implements <paramref name="baseName"/> through the application's types.</summary>
    public bool IsAssignableTo(string typeName, string baseName) => typeName == baseName || Derives(typeName, [baseName]);

    /// <summary>
    /// The routes an MVC action's attributes give it on the controller <paramref name="typeName"/>, by the one route model
    /// (<see cref="Tplab.Blocking.MvcRouteModel"/>, read through <see cref="MetadataRouting"/>), as registrations, one per
    /// route and method: attribute routes, else the conventional <c>{controller}/{action}</c>; empty for a method that
    /// is no action.
    /// </summary>
    public IReadOnlyList<EndpointRegistration> ActionRoutes(string typeName, string methodName)
    {
        if (methodName.StartsWith('<') || methodName.StartsWith('.') || !Derives(typeName, ControllerBases) || _routing.Action(typeName, methodName) is not { } action)
        {
            return [];
        }
        return [.. Tplab.Blocking.MvcRouteModel.Routes(_routing.Controller(typeName), action)
            .Select(r => new EndpointRegistration(r.Method, r.Route, (typeName, methodName)))];
    }

    /// <summary>Walks the base types through the application's own types; an interface counts where it is implemented.</summary>
    public bool Derives(string typeName, string[] bases)
    {
        for (var depth = 0; depth < 8 && index.TryGetType(typeName, out var found); depth++)
        {
            var (reader, handle) = found;
            var type = reader.GetTypeDefinition(handle);
            foreach (var implemented in type.GetInterfaceImplementations())
            {
                if (IlCalls.NameOf(reader, reader.GetInterfaceImplementation(implemented).Interface) is { } name && bases.Contains(name))
                {
                    return true;
                }
            }
            var baseName = type.BaseType.IsNil ? null : IlCalls.NameOf(reader, type.BaseType);
            if (baseName is null or "System.Object")
            {
                return false;
            }
            if (bases.Contains(baseName))
            {
                return true;
            }
            typeName = baseName;
        }
        return false;
    }
}
