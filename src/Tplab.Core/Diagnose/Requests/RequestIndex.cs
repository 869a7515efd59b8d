using System.Text.RegularExpressions;
using Tplab.Blocking;

namespace Tplab.Diagnose.Requests;

/// <summary>
/// Finds the request a blocked pool thread was serving, from ASP.NET Core's own events in the same session. A wait
/// event carries the activity id of the code that waited, which flows from the request's start into its continuations
/// and Task.Run bodies: that names the request whatever the stack. Samples carry none, so there the link is the thread:
/// a stack that still holds Kestrel's request loop (or MVC's invoker) is running, synchronously, the request whose Start
/// (or BeforeAction) was raised last on that same thread — nothing else can have started on it in between.
/// </summary>
public sealed partial class RequestIndex
{
    private readonly Dictionary<Guid, Request> _requests = [];
    private readonly Dictionary<int, List<(double TimeMs, Request Request)>> _starts = [];
    private readonly Dictionary<int, List<(double TimeMs, Request Request)>> _actions = [];
    private readonly System.Runtime.CompilerServices.ConditionalWeakTable<IReadOnlyList<StackFrame>, Shape> _shapes = [];

    private sealed record Shape(bool Mvc, bool Kestrel);

    public RequestIndex(IEnumerable<RequestEvent> events)
    {
        ArgumentNullException.ThrowIfNull(events);
        foreach (var e in events.OrderBy(e => e.TimeMs))
        {
            if (!_requests.TryGetValue(e.Activity, out var request))
            {
                _requests[e.Activity] = request = new Request();
            }
            // Only times and threads are read here; a request's fields are read when its endpoint is asked for.
            switch (e.Kind)
            {
                case RequestEventKind.Start:
                    request.Events.Add(e);
                    Add(_starts, e, request);
                    break;
                case RequestEventKind.Stop:
                    request.StopMs = e.TimeMs;
                    break;
                case RequestEventKind.EndpointMatched:
                    request.Events.Add(e);
                    break;
                case RequestEventKind.BeforeAction:
                    request.Events.Add(e);
                    Add(_actions, e, request);
                    break;
            }
        }
    }

    /// <summary>Requests seen (started, matched or run) during the capture.</summary>
    public int Count => _requests.Count;

    /// <summary>
    /// The endpoint <paramref name="threadId"/> was serving at <paramref name="timeMs"/> with this stack (or, first, the one
    /// of the request whose <paramref name="activity"/> the wait carried), or null when the events do not say.
    /// </summary>
    public Endpoint? Find(int threadId, double timeMs, IReadOnlyList<StackFrame> frames, Guid activity = default)
    {
        if (activity != Guid.Empty && _requests.TryGetValue(activity, out var flowed) && flowed.ToEndpoint() is { } endpoint)
        {
            return endpoint;
        }
        // Stacks are shared between observations: what each one holds is read once.
        if (!_shapes.TryGetValue(frames, out var shape))
        {
            var mvcFrame = false;
            var kestrelFrame = false;
            foreach (var frame in frames)
            {
                mvcFrame |= frame.TypeName.StartsWith("Microsoft.AspNetCore.Mvc.", StringComparison.Ordinal);
                kestrelFrame |= frame.TypeName.StartsWith("Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpProtocol", StringComparison.Ordinal);
            }
            _shapes.Add(frames, shape = new Shape(mvcFrame, kestrelFrame));
        }
        var (mvc, kestrel) = (shape.Mvc, shape.Kestrel);
        var request = (mvc ? Latest(_actions, threadId, timeMs) : null) ?? (kestrel ? Latest(_starts, threadId, timeMs) : null);
        return request?.ToEndpoint();
    }

    private static Request? Latest(Dictionary<int, List<(double TimeMs, Request Request)>> byThread, int threadId, double timeMs)
    {
        if (!byThread.TryGetValue(threadId, out var list))
        {
            return null;
        }
        // Lists are in time order; the last entry at or before the observation is the request on that stack.
        for (var i = list.Count - 1; i >= 0; i--)
        {
            if (list[i].TimeMs <= timeMs)
            {
                var request = list[i].Request;
                return request.StopMs is { } stop && stop < timeMs ? null : request;
            }
        }
        return null;
    }

    private static void Add(Dictionary<int, List<(double, Request)>> byThread, RequestEvent e, Request request)
    {
        if (!byThread.TryGetValue(e.ThreadId, out var list))
        {
            byThread[e.ThreadId] = list = [];
        }
        list.Add((e.TimeMs, request));
    }

    private static ActionName? ActionOf(RequestEvent e)
    {
        var method = e.Field("Action");
        if (e.Field("Type") is { } type && method is not null)
        {
            return new ActionName(type, method);
        }
        // "Shop.Api.OrdersController.Get (Shop.Api)": MVC's display name of an action, assembly in brackets.
        var name = e.Field("Name");
        if (name is null)
        {
            return null;
        }
        var bracket = name.LastIndexOf(" (", StringComparison.Ordinal);
        var plain = bracket > 0 ? name[..bracket] : name;
        var dot = plain.LastIndexOf('.');
        return dot > 0 && !plain.StartsWith('/') ? new ActionName(plain[..dot], plain[(dot + 1)..]) : null;
    }

    // DiagnosticSource's *Enumerate writes "[id, 2],[controller, Shop]".
    internal static IReadOnlyDictionary<string, string> ParseValues(string? text)
    {
        var values = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (Match m in RouteValue().Matches(text ?? ""))
        {
            values[m.Groups[1].Value.Trim()] = m.Groups[2].Value.Trim();
        }
        return values;
    }

    /// <summary><c>/orders/42</c> with <c>id=42</c> → <c>/orders/{id}</c>: the template as far as the values show it.</summary>
    internal static string RouteOf(string path, IReadOnlyDictionary<string, string> values)
    {
        if (values.Count == 0)
        {
            return path;
        }
        var segments = path.Split('/');
        for (var i = 0; i < segments.Length; i++)
        {
            if (segments[i].Length == 0)
            {
                continue;
            }
            foreach (var (key, value) in values)
            {
                if (string.Equals(Uri.UnescapeDataString(segments[i]), value, StringComparison.OrdinalIgnoreCase))
                {
                    segments[i] = "{" + key + "}";
                    break;
                }
            }
        }
        return string.Join('/', segments);
    }

    [GeneratedRegex(@"\[([^,\[\]]+),([^\[\]]*)\]")]
    private static partial Regex RouteValue();

    private sealed class Request
    {
        public List<RequestEvent> Events { get; } = [];

        public double? StopMs;

        private Endpoint? _endpoint;
        private bool _read;

        public Endpoint? ToEndpoint()
        {
            if (_read)
            {
                return _endpoint;
            }
            _read = true;
            string? method = null, path = null, template = null;
            ActionName? action = null;
            IReadOnlyDictionary<string, string> values = new Dictionary<string, string>();
            foreach (var e in Events)
            {
                switch (e.Kind)
                {
                    case RequestEventKind.Start:
                        method = e.Field("method") ?? method;
                        path = e.Field("path") ?? path;
                        break;
                    case RequestEventKind.EndpointMatched:
                        method ??= e.Field("Method");
                        path ??= e.Field("Path");
                        values = ParseValues(e.Field("Values"));
                        break;
                    case RequestEventKind.BeforeAction:
                        // A Razor Page raises BeforeAction (the page) then BeforeHandlerMethod (its handler): keep what each adds.
                        template = e.Field("Template") ?? template;
                        action = ActionOf(e) ?? action;
                        break;
                }
            }
            if (path is null && template is null)
            {
                return null;
            }
            // Constraints aside ("{id:int}" is "{id}"): the route as users name it, the same from MVC's template, the
            // path's route values, the IL's registration or a dump's heap.
            var route = template is { } t ? "/" + AspNetVocabulary.WithoutConstraints(t).TrimStart('/') : RouteOf(path!, values);
            return _endpoint = new Endpoint(method ?? "?", route, action);
        }
    }
}
