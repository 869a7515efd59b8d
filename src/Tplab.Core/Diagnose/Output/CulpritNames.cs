using System.Globalization;
using Tplab.Blocking;

namespace Tplab.Diagnose.Output;

/// <summary>The words both reports use for a culprit, so text and JSON never disagree.</summary>
public static class CulpritNames
{
    /// <summary>Said when no application method is known: no frame on the stack, nothing in the IL or the events naming it.</summary>
    public const string NoApplicationFrame = "(no application frame)";

    /// <summary>The culprit's method as a developer searches for it, with the line of the blocking call when known.</summary>
    public static string Who(BlockedStackGroup c)
    {
        ArgumentNullException.ThrowIfNull(c);
        var name = c.Chain.Count > 0 ? c.Chain[^1].Name : c.UserFrame?.DisplayName;
        return name is null ? NoApplicationFrame : c.At is { } at ? $"{name} at {at}" : name;
    }

    /// <summary>
    /// How the call is reached, from the request when there is one: <c>GET /orders/{id} → OrderService.Load → PriceClient.GetPrice</c>
    /// (a handler named by its route is the endpoint itself); null when the chain is one method and no endpoint leads to it.
    /// </summary>
    public static string? ReachedFrom(BlockedStackGroup c)
    {
        ArgumentNullException.ThrowIfNull(c);
        var names = c.Chain.Select(h => h.Name).ToList();
        if (c.Endpoint is { } endpoint && c.Place is not (CodePlace.HostedService or CodePlace.Timer))
        {
            if (names.Count > 0 && names[0] == endpoint + " handler")
            {
                names.RemoveAt(0);
            }
            names.Insert(0, endpoint.ToString());
        }
        return names.Count > 1 ? string.Join(" → ", names) : null;
    }

    /// <summary>The place in words, with the service a factory builds: <c>dependency-injection factory of IFxRates</c>.</summary>
    public static string Where(BlockedStackGroup c)
    {
        ArgumentNullException.ThrowIfNull(c);
        var place = PlaceWords.Text(c.Place);
        return c.Service is { } service ? $"{place} of {service[(service.LastIndexOf('.') + 1)..].Replace('+', '.')}" : place;
    }

    /// <summary>The endpoint line: the endpoint, or why it is not named.</summary>
    public static string Endpoint(BlockedStackGroup c)
    {
        ArgumentNullException.ThrowIfNull(c);
        if (c.Endpoint is { } ep)
        {
            return ep + (c.OtherEndpoints > 0 ? string.Create(CultureInfo.InvariantCulture, $" and {c.OtherEndpoints} other endpoint(s)") : "");
        }
        return c.Place switch
        {
            CodePlace.HostedService or CodePlace.Timer => "none (not a request's work)",
            _ when c.Context.HasFlag(CallContext.Continuation) || c.Context.HasFlag(CallContext.TaskRun) || !c.Context.HasFlag(CallContext.RequestPath) =>
                "unknown (the runtime's events do not link this thread to a request: samples carry no activity, and no handler is in the chain)",
            _ => "unknown (not seen in ASP.NET Core's events)",
        };
    }
}
