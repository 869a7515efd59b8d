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

    /// <summary>True when <paramref name="typeName"/> is, derives from or implements <paramref name="baseName"/> through the application's types.</summary>
    public bool IsAssignableTo(string typeName, string baseName) => typeName == baseName || Derives(typeName, [baseName]);

    private Registrations.Found? _registrations;
    private Dictionary<string, (string Type, string Method)>? _declarers;

    /// <summary>
    /// The method that hands <paramref name="typeName"/>.<paramref name="methodName"/> on as a delegate (the method a lambda
    /// is written in: a handler that runs it with Task.Run), as callers name it (an async method, not its MoveNext); null when none.
    /// </summary>
    public (string Type, string Method)? DeclarerOf(string typeName, string methodName)
    {
        if (_declarers is null)
        {
            var declarers = new Dictionary<string, (string Type, string Method)>(StringComparer.Ordinal);
            foreach (var key in _methods.Keys)
            {
                var dot = key.LastIndexOf('.');
                var declarer = Written(key[..dot], key[(dot + 1)..]);
                foreach (var (module, handle) in _methods[key])
                {
                    if (Body(module, handle, stateMachine: false) is not { } body)
                    {
                        continue;
                    }
                    foreach (var site in Sites(body).Where(s => s.Pointer))
                    {
                        declarers.TryAdd(site.Type + "." + site.Method, declarer);
                    }
                }
            }
            _declarers = declarers;
        }
        return _declarers.TryGetValue(typeName + "." + methodName, out var found) ? found : null;
    }

    /// <summary>The minimal API endpoints the application's IL registers (<c>Map*</c> calls), with their groups' prefixes.</summary>
    public IReadOnlyList<EndpointRegistration> Endpoints => (_registrations ??= ReadRegistrations()).Endpoints;

    /// <summary>The callbacks the application's IL hands to <c>new Timer(...)</c>.</summary>
    public IReadOnlyList<(string Type, string Method)> TimerCallbacks => (_registrations ??= ReadRegistrations()).TimerCallbacks;

    /// <summary>The dependency-injection factories the application's IL registers (<c>Add*</c> calls given a delegate).</summary>
    public IReadOnlyList<ServiceRegistration> Services => (_registrations ??= ReadRegistrations()).Services;

    /// <summary>The lambdas and methods the application's IL hands to <c>Task.Run</c> or <c>StartNew</c>.</summary>
    public IReadOnlyList<(string Type, string Method)> TaskBodies => (_registrations ??= ReadRegistrations()).TaskBodies;

    /// <summary>
    /// True when the application hands <paramref name="typeName"/>.<paramref name="methodName"/> (a lambda or a method
    /// group) to ASP.NET Core's <c>Map*</c> as a minimal API endpoint's handler.
    /// </summary>
    public bool IsEndpointHandler(string typeName, string methodName) => HandlerOf(typeName, methodName) is not null;

    /// <summary>The endpoint <paramref name="typeName"/>.<paramref name="methodName"/> handles, or null when it is no handler.</summary>
    public EndpointRegistration? HandlerOf(string typeName, string methodName) =>
        Endpoints.FirstOrDefault(e => e.Handler.Type == typeName && e.Handler.Method == methodName);

    /// <summary>The registration that makes <paramref name="typeName"/>.<paramref name="methodName"/> a service factory, or null.</summary>
    public ServiceRegistration? FactoryOf(string typeName, string methodName) =>
        Services.FirstOrDefault(s => s.Factory.Type == typeName && s.Factory.Method == methodName);

    private Registrations.Found ReadRegistrations()
    {
        var endpoints = new Dictionary<string, List<EndpointRegistration>>(StringComparer.Ordinal);
        var all = new Registrations.Found([], [], [], [], []);
        bool IsApplication(string type, string method) => _methods.ContainsKey(type + "." + method);
        foreach (var key in _methods.Keys)
        {
            foreach (var body in BodiesOf(key))
            {
                var found = Registrations.Read(body.Module.Reader, Instructions(body.Module, body.Handle) ?? [], null, IsApplication);
                if (found.Endpoints.Count > 0)
                {
                    endpoints[key] = found.Endpoints;
                }
                all.Services.AddRange(found.Services);
                all.Groups.AddRange(found.Groups);
                all.TaskBodies.AddRange(found.TaskBodies);
                all.TimerCallbacks.AddRange(found.TimerCallbacks);
            }
        }
        // A group handed to another method (`app.MapGroup("/api").MapPricing()`): that method's routes sit under it.
        foreach (var ((type, method), prefix) in all.Groups)
        {
            var key = type + "." + method;
            var under = new List<EndpointRegistration>();
            foreach (var body in BodiesOf(key))
            {
                under.AddRange(Registrations.Read(body.Module.Reader, Instructions(body.Module, body.Handle) ?? [], prefix, IsApplication).Endpoints);
            }
            if (under.Count > 0)
            {
                endpoints[key] = under;
            }
        }
        return all with { Endpoints = [.. endpoints.Values.SelectMany(e => e)] };
    }

    /// <summary>
    /// The route an MVC action's attributes give it (<c>[Route("api/[controller]")]</c> on the controller, <c>[HttpGet("{id:int}")]</c>
    /// on the action, tokens replaced), as a registration; null for a method that is no attribute-routed action.
    /// </summary>
    public EndpointRegistration? ActionRoute(string typeName, string methodName)
    {
        if (!_types.TryGetValue(typeName, out var found) || !ActionCandidates(page: false).Contains((typeName, methodName)))
        {
            return null;
        }
        return AttributeRoutes.Of(found.Reader, found.Type, typeName, methodName);
    }
}
