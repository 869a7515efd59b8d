using Microsoft.Diagnostics.Runtime;
using Tplab.Diagnose.Requests;

namespace Tplab.Diagnose.Offline;

/// <summary>
/// The request a dump's thread was serving, read from the heap where the events of a live capture are missing: Kestrel's
/// connection object (its <c>HttpProtocol</c>, referenced from the thread's stack while it runs the request's pipeline)
/// holds the request's method and the endpoint routing matched (its route pattern, and for MVC the action's name). Given
/// to the diagnosis as the request events a live capture would have had for that thread. A thread whose stack holds no
/// such object (a continuation, a Task.Run body) gets none: its endpoint comes from the code, or stays unknown.
/// </summary>
internal static class DumpRequests
{
    private const string Protocols = "Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http";

    /// <summary>The events that name <paramref name="thread"/>'s request, or none.</summary>
    public static IEnumerable<RequestEvent> Of(ClrThread thread)
    {
        ClrObject connection = default;
        var roots = 0;
        foreach (var root in thread.EnumerateStackRoots())
        {
            if (++roots > 500)
            {
                break;
            }
            var name = root.Object.Type?.Name;
            if (name is not null && name.StartsWith(Protocols, StringComparison.Ordinal)
                && (name.Contains(".Http1Connection", StringComparison.Ordinal) || name.Contains(".Http2Stream", StringComparison.Ordinal) || name.Contains(".Http3Stream", StringComparison.Ordinal)))
            {
                connection = root.Object;
                break;
            }
        }
        if (!connection.IsValid || connection.IsNull)
        {
            return [];
        }
        var activity = Guid.NewGuid();
        var method = MethodOf(connection);
        var path = Read(() => connection.ReadStringField("<Path>k__BackingField"));
        var endpoint = Read(() => connection.ReadObjectField("_endpoint"));
        var pattern = endpoint is { IsNull: false } e ? Read(() => e.ReadObjectField("<RoutePattern>k__BackingField").ReadStringField("<RawText>k__BackingField")) : null;
        var display = endpoint is { IsNull: false } d ? Read(() => d.ReadStringField("<DisplayName>k__BackingField")) : null;
        var thread32 = (int)thread.OSThreadId;
        var events = new List<RequestEvent>
        {
            new(RequestEventKind.Start, thread32, 0, activity, new Dictionary<string, string>(StringComparer.Ordinal)
            {
                ["method"] = method ?? "?",
                ["path"] = pattern is not null ? "/" + Chains.ChainRoots.WithoutConstraints(pattern).TrimStart('/') : path ?? "?",
            }),
        };
        // MVC names its endpoints after the action ("Shop.OrdersController.Get (Shop)"); minimal APIs after the route.
        if (pattern is not null && display is not null && !display.StartsWith("HTTP:", StringComparison.Ordinal) && display.Contains(" (", StringComparison.Ordinal))
        {
            events.Add(new RequestEvent(RequestEventKind.BeforeAction, thread32, 0, activity, new Dictionary<string, string>(StringComparer.Ordinal)
            {
                ["Name"] = display,
                ["Template"] = Chains.ChainRoots.WithoutConstraints(pattern),
            }));
        }
        return events;
    }

    // Kestrel keeps the method as its own enum, and the text only for methods outside it.
    private static string? MethodOf(ClrObject connection)
    {
        if (Read(() => connection.ReadStringField("_methodText")) is { Length: > 0 } text)
        {
            return text;
        }
        var value = Read(() => (int?)connection.ReadField<byte>("<Method>k__BackingField"));
        return value switch
        {
            0 => "GET",
            1 => "PUT",
            2 => "DELETE",
            3 => "POST",
            4 => "HEAD",
            5 => "TRACE",
            6 => "PATCH",
            7 => "CONNECT",
            8 => "OPTIONS",
            _ => null,
        };
    }

    // A field this version of Kestrel does not have, or memory the dump did not keep: that part is unknown.
    private static T? Read<T>(Func<T> read)
    {
        try
        {
            return read();
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException or IOException)
        {
            return default;
        }
    }
}
