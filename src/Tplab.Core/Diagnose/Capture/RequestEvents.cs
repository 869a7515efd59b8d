using Microsoft.Diagnostics.Tracing;
using Tplab.Diagnose.Requests;

namespace Tplab.Diagnose.Capture;

/// <summary>
/// ASP.NET Core's request events in a trace (hosting's Start/Stop, the DiagnosticSource bridge's EndpointMatched and
/// BeforeAction) as <see cref="RequestEvent"/>s. Their payloads are read only when a request is looked at: a copy of
/// the event is kept meanwhile, since a busy service raises thousands and only the held requests matter.
/// </summary>
internal static class RequestEvents
{
    /// <summary>The request event <paramref name="e"/> is (at <paramref name="t"/> ms), or null when it is none.</summary>
    public static RequestEvent? Of(TraceEvent e, double t)
    {
        if (e.ProviderName == DiagnoseProviders.Hosting)
        {
            var kind = e.EventName switch
            {
                "Request/Start" or "RequestStart" => RequestEventKind.Start,
                "Request/Stop" or "RequestStop" => RequestEventKind.Stop,
                _ => (RequestEventKind?)null,
            };
            if (kind is not { } k)
            {
                return null;
            }
            if (k == RequestEventKind.Stop)
            {
                return new RequestEvent(k, e.ThreadID, t, e.ActivityID);
            }
            // A copy of the event, read only if the request turns out to matter (most of a busy service's do not).
            var start = e.Clone();
            return new RequestEvent(k, e.ThreadID, t, e.ActivityID, () => FieldsOf(start));
        }
        if (e.ProviderName == DiagnoseProviders.DiagnosticSource && e.EventName is "Event" or "Activity1/Start" or "Activity2/Start" or "Message" && e.PayloadByName("EventName") is string name)
        {
            var kind = name switch
            {
                DiagnoseProviders.EndpointMatched => RequestEventKind.EndpointMatched,
                DiagnoseProviders.BeforeAction or DiagnoseProviders.BeforeHandlerMethod => RequestEventKind.BeforeAction,
                _ => (RequestEventKind?)null,
            };
            if (kind is not { } k)
            {
                return null;
            }
            var copy = e.Clone();
            return new RequestEvent(k, e.ThreadID, t, e.ActivityID, () => ArgumentsOf(copy.PayloadByName("Arguments")));
        }
        return null;
    }

    // Only a request's start says anything (method, path); its fields are read by position, once each.
    private static IReadOnlyDictionary<string, string> FieldsOf(TraceEvent e)
    {
        var fields = new Dictionary<string, string>(StringComparer.Ordinal);
        var names = e.PayloadNames;
        for (var i = 0; i < names.Length; i++)
        {
            if (names[i] is "method" or "path")
            {
                fields[names[i]] = e.PayloadValue(i)?.ToString() ?? "";
            }
        }
        return fields;
    }

    // The bridge writes its transforms as an array of { Key, Value } pairs.
    private static IReadOnlyDictionary<string, string> ArgumentsOf(object? arguments)
    {
        var fields = new Dictionary<string, string>(StringComparer.Ordinal);
        if (arguments is not System.Collections.IEnumerable items)
        {
            return fields;
        }
        foreach (var item in items)
        {
            if (item is IEnumerable<KeyValuePair<string, object>> pairs)
            {
                var map = pairs.ToDictionary(p => p.Key, p => p.Value, StringComparer.Ordinal);
                if (map.GetValueOrDefault("Key") is string key)
                {
                    fields[key] = map.GetValueOrDefault("Value")?.ToString() ?? "";
                }
            }
        }
        return fields;
    }
}
