namespace Tplab.Diagnose.Code;

/// <summary>
/// What the application's IL registers, over all its methods, read once: minimal API endpoints (with the prefixes of
/// groups, also when a group is handed to another method), dependency-injection factories, Task.Run bodies and timer
/// callbacks (<see cref="Registrations"/> reads one body).
/// </summary>
internal sealed class ApplicationRegistrations(AssemblyIndex index)
{
    private Registrations.Found? _found;

    private Registrations.Found Found => _found ??= Read();

    /// <summary>The minimal API endpoints the application's IL registers (<c>Map*</c> calls), with their groups' prefixes.</summary>
    public IReadOnlyList<EndpointRegistration> Endpoints => Found.Endpoints;

    /// <summary>The callbacks the application's IL hands to <c>new Timer(...)</c>.</summary>
    public IReadOnlyList<(string Type, string Method)> TimerCallbacks => Found.TimerCallbacks;

    /// <summary>The dependency-injection factories the application's IL registers (<c>Add*</c> calls given a delegate).</summary>
    public IReadOnlyList<ServiceRegistration> Services => Found.Services;

    /// <summary>The lambdas and methods the application's IL hands to <c>Task.Run</c> or <c>StartNew</c>.</summary>
    public IReadOnlyList<(string Type, string Method)> TaskBodies => Found.TaskBodies;

    /// <summary>The endpoint <paramref name="typeName"/>.<paramref name="methodName"/> handles, or null when it is no handler.</summary>
    public EndpointRegistration? HandlerOf(string typeName, string methodName) =>
        Endpoints.FirstOrDefault(e => e.Handler.Type == typeName && e.Handler.Method == methodName);

    /// <summary>The registration that makes <paramref name="typeName"/>.<paramref name="methodName"/> a service factory, or null.</summary>
    public ServiceRegistration? FactoryOf(string typeName, string methodName) =>
        Services.FirstOrDefault(s => s.Factory.Type == typeName && s.Factory.Method == methodName);

    private Registrations.Found Read()
    {
        var endpoints = new Dictionary<string, List<EndpointRegistration>>(StringComparer.Ordinal);
        var all = new Registrations.Found([], [], [], [], []);
        bool IsApplication(string type, string method) => index.Has(type + "." + method);
        foreach (var key in index.MethodKeys)
        {
            foreach (var body in index.BodiesOf(key))
            {
                var found = Registrations.Read(body.Module.Reader, index.InstructionsOf(body), null, IsApplication);
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
            foreach (var body in index.BodiesOf(key))
            {
                under.AddRange(Registrations.Read(body.Module.Reader, index.InstructionsOf(body), prefix, IsApplication).Endpoints);
            }
            if (under.Count > 0)
            {
                endpoints[key] = under;
            }
        }
        return all with { Endpoints = [.. endpoints.Values.SelectMany(e => e)] };
    }
}
