namespace Tplab.Diagnose.Code;

/// <summary>What the application's types are to ASP.NET Core and the host, read from their metadata and IL.</summary>
public sealed partial class ApplicationCode
{
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
        _methods.Keys
            .Select(k => (Type: k[..k.LastIndexOf('.')], Method: k[(k.LastIndexOf('.') + 1)..]))
            .Where(m => !m.Method.StartsWith('<') && !m.Method.StartsWith('.') && !m.Type.Contains('<', StringComparison.Ordinal)
                && Derives(m.Type, page ? PageBases : ControllerBases));

    private static readonly string[] HostedServiceBases =
    [
        "Microsoft.Extensions.Hosting.BackgroundService", "Microsoft.Extensions.Hosting.IHostedService", "Microsoft.Extensions.Hosting.IHostedLifecycleService",
    ];

    private static readonly string[] ControllerBases = ["Microsoft.AspNetCore.Mvc.ControllerBase", "Microsoft.AspNetCore.Mvc.Controller"];

    private static readonly string[] PageBases = ["Microsoft.AspNetCore.Mvc.RazorPages.PageModel", "Microsoft.AspNetCore.Mvc.RazorPages.Page"];

    // Walks the base types through the application's own types; an interface counts where it is implemented.
    private bool Derives(string typeName, string[] bases)
    {
        for (var depth = 0; depth < 8 && _types.TryGetValue(typeName, out var found); depth++)
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

    /// <summary>
    /// True when the application hands <paramref name="typeName"/>.<paramref name="methodName"/> (a lambda or a method
    /// group) to ASP.NET Core's <c>Map*</c> as a minimal API endpoint's handler.
    /// </summary>
    public bool IsEndpointHandler(string typeName, string methodName)
    {
        if (_endpointHandlers is null)
        {
            var handlers = new HashSet<string>(StringComparer.Ordinal);
            foreach (var key in _methods.Keys)
            {
                foreach (var (reader, body, _) in BodiesOf(key))
                {
                    handlers.UnionWith(IlCalls.EndpointHandlers(reader, body).Select(h => h.Type + "." + h.Method));
                }
            }
            _endpointHandlers = handlers;
        }
        return _endpointHandlers.Contains(typeName + "." + methodName);
    }
}
