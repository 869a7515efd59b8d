using System.Reflection.Metadata;
using Tplab.Blocking;

namespace Tplab.Diagnose.Code;

/// <summary>A minimal API endpoint as the application's IL registers it: <c>app.MapGet("/orders/{id}", handler)</c>, with its groups' prefixes.</summary>
/// <param name="Verb">GET, POST, ... from the Map method (<c>ANY</c> for <c>Map</c>; one registration per method of <c>MapMethods</c>).</param>
/// <param name="Route">The route as written, group prefixes put in front where the IL shows them (<c>/api/prices/{sku}</c>).</param>
/// <param name="Handler">The lambda or method handed to Map, as the IL names it (<c>Shop.PricingEndpoints+&lt;&gt;c</c>, <c>&lt;MapPricing&gt;b__0_0</c>).</param>
public sealed record EndpointRegistration(string Verb, string Route, (string Type, string Method) Handler)
{
    /// <summary><c>GET /api/prices/{sku}</c>.</summary>
    public override string ToString() => $"{Verb} {Route}";
}

/// <summary>A dependency-injection factory as the application's IL registers it: <c>services.AddSingleton&lt;IFxRates&gt;(sp => ...)</c>.</summary>
/// <param name="ServiceType">The service the factory builds (full name), or null when the registration does not say (a non-generic Add).</param>
/// <param name="Factory">The lambda or method handed to Add, as the IL names it.</param>
public sealed record ServiceRegistration(string? ServiceType, (string Type, string Method) Factory);

/// <summary>
/// Reads registrations from method bodies: the endpoints handed to ASP.NET Core's <c>Map*</c> (with the prefixes of
/// <c>MapGroup</c>, also when a group is passed to another method of the application) and the factories handed to
/// <c>Add*</c> of dependency injection. A delegate made by <c>ldftn</c> belongs to the next call that is not its constructor.
/// </summary>
internal static class Registrations
{
    /// <summary>What one body registers (endpoints, factories, Task.Run bodies), and the application methods it passes a group to (with the group's prefix).</summary>
    public static Found Read(MetadataReader reader, IReadOnlyList<IlInstruction> body, string? argumentPrefix, Func<string, string, bool> isApplication)
    {
        var endpoints = new List<EndpointRegistration>();
        var services = new List<ServiceRegistration>();
        var taskBodies = new List<(string, string)>();
        var timerCallbacks = new List<(string, string)>();
        var groups = new List<((string, string), string)>();
        var locals = new Dictionary<int, string>();
        string? current = null;      // the prefix of the value loaded last (a local, an argument, a group just made)
        string? route = null;        // the last string loaded
        var strings = new List<string>(); // the strings loaded since the last call: MapMethods' pattern, then its methods
        string? routeReceiver = null;
        (string Type, string Method)? pointer = null;
        for (var i = 0; i < body.Count; i++)
        {
            var instruction = body[i];
            switch (instruction.Kind)
            {
                case IlKind.LoadLocal:
                    current = locals.GetValueOrDefault(instruction.Index);
                    break;
                case IlKind.LoadArgument:
                    current = instruction.Index == 0 ? argumentPrefix : null;
                    break;
                case IlKind.String:
                    route = IlInstructions.UserString(reader, instruction);
                    routeReceiver = current;
                    if (route is not null)
                    {
                        strings.Add(route);
                    }
                    break;
                case IlKind.Pointer:
                    pointer = IlCalls.Callee(reader, instruction);
                    break;
                case IlKind.Call when IlCalls.Callee(reader, instruction) is { } callee:
                    var (type, method) = callee;
                    if (method == ".ctor")
                    {
                        // `new Timer(_ => Refresh(), ...)`: the callback's delegate is made first, then the timer.
                        if (type == "System.Threading.Timer" && pointer is { } callback)
                        {
                            timerCallbacks.Add(callback);
                            pointer = null;
                        }
                        break;
                    }
                    if (type.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal) && method == "MapGroup" && route is not null)
                    {
                        var prefix = Combine(routeReceiver, route);
                        if (i + 1 < body.Count && body[i + 1].Kind == IlKind.StoreLocal)
                        {
                            locals[body[i + 1].Index] = prefix;
                        }
                        current = prefix;
                        route = null;
                        pointer = null;
                        strings.Clear();
                        break;
                    }
                    if (pointer is { } methodsHandler && type.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal) && method == "MapMethods" && strings.Count > 1)
                    {
                        // MapMethods("/stock/{sku}", ["GET", "HEAD"], handler): the pattern, then one endpoint per method.
                        endpoints.AddRange(strings.Skip(1).Select(m => m.ToUpperInvariant()).Distinct()
                            .Select(m => new EndpointRegistration(m, Combine(routeReceiver, strings[0]), methodsHandler)));
                    }
                    else if (pointer is { } handler && type.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal) && method.StartsWith("Map", StringComparison.Ordinal) && route is not null)
                    {
                        endpoints.Add(new EndpointRegistration(Verb(method), Combine(routeReceiver, route), handler));
                    }
                    else if (pointer is { } factory && type.StartsWith("Microsoft.Extensions.DependencyInjection.", StringComparison.Ordinal)
                        && (method.StartsWith("Add", StringComparison.Ordinal) || method.StartsWith("TryAdd", StringComparison.Ordinal)))
                    {
                        var arguments = IlCalls.MethodArguments(reader, instruction);
                        services.Add(new ServiceRegistration(arguments.Count > 0 ? arguments[0] : null, factory));
                    }
                    else if (pointer is { } runs && method is "Run" or "StartNew" && type is "System.Threading.Tasks.Task" or "System.Threading.Tasks.TaskFactory" or "System.Threading.Tasks.TaskFactory`1")
                    {
                        taskBodies.Add(runs);
                    }
                    else if (current is { Length: > 0 } group && isApplication(type, method))
                    {
                        // `app.MapGroup("/api").MapPricing()` or `MapPricing(group)`: the callee registers under the group.
                        groups.Add(((type, method), group));
                    }
                    pointer = null;
                    current = null;
                    strings.Clear();
                    break;
            }
        }
        return new Found(endpoints, services, groups, taskBodies, timerCallbacks);
    }

    /// <summary>What <see cref="Read"/> found in one body.</summary>
    public sealed record Found(
        List<EndpointRegistration> Endpoints,
        List<ServiceRegistration> Services,
        List<((string Type, string Method) Callee, string Prefix)> Groups,
        List<(string Type, string Method)> TaskBodies,
        List<(string Type, string Method)> TimerCallbacks);

    private static string Verb(string mapMethod) => AspNetVocabulary.MapVerb(mapMethod) ?? AspNetVocabulary.AnyMethod;

    /// <summary><c>/api/prices</c> + <c>/{sku}</c> → <c>/api/prices/{sku}</c>.</summary>
    internal static string Combine(string? prefix, string route)
    {
        var tail = route.Trim('/');
        var head = (prefix ?? "").Trim('/');
        var joined = head.Length == 0 ? tail : tail.Length == 0 ? head : head + "/" + tail;
        return "/" + joined;
    }
}
