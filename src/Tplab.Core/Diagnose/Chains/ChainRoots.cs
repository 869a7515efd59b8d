using System.Text.RegularExpressions;
using Tplab.Blocking;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Requests;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose.Chains;

/// <summary>
/// The root of a chain whose outermost methods the JIT inlined into a framework frame: the minimal API handler of the
/// request's endpoint (the IL's <c>Map*</c> registrations, matched by route), the MVC action MVC's event named, or the one
/// middleware, filter, action or handler whose IL reaches the first method known. Null when the stack's own outermost
/// application frame is the root, or when the IL allows several.
/// </summary>
internal static partial class ChainRoots
{
    /// <summary>The methods a middleware class is called by.</summary>
    internal static readonly string[] MiddlewareEntries = ["InvokeAsync", "Invoke"];

    private static readonly string[] FilterEntries =
    [
        "OnActionExecuting", "OnActionExecuted", "OnActionExecutionAsync", "OnResourceExecuting", "OnResourceExecutionAsync",
        "OnAuthorization", "OnAuthorizationAsync", "OnResultExecuting", "OnResultExecutionAsync", "OnException", "OnExceptionAsync",
    ];

    /// <summary>The root to put before <paramref name="physical"/> (the stack's application frames, outermost first), or null.</summary>
    public static (string Type, string Method)? Find(
        BlockedStack stack, Endpoint? endpoint, ApplicationCode code, InlineIndex? inlines, IReadOnlyList<Anchor> physical, Func<string, string, bool> isTarget)
    {
        var first = physical.Count > 0 ? physical[0].Written : ((string Type, string Method)?)null;
        var reachesFirst = physical.Count > 0 ? ChainBuilder.Calling(physical[0], code) : isTarget;
        bool Reaches((string Type, string Method) m, bool followDelegates = true) =>
            m == first || code.Reaches(m.Type, m.Method, reachesFirst, followDelegates);
        // A method the JIT named as inlined into the framework frame (compiled during the capture) narrows the search.
        var inlined = stack.Boundary is { } boundary && inlines is not null ? inlines.InlinedInto(boundary) : [];
        // A Task.Run body or an async method the JIT inlined into the runtime's runner: the box names its state machine;
        // a Task's body is the one the application hands to Task.Run whose IL reaches the call.
        var at = stack.Boundary is { } b ? IndexOf(stack.Frames, b) : -1;
        var runs = at >= 0 ? FrameKinds.RunnerOf(stack.Frames, at) : RunnerKind.None;
        // The outermost frame on the stack sits right on a runner, but is not what runners run (a Task.Run body, a timer
        // callback): the body or callback that called it went into the runner.
        if (physical.Count > 0 && physical[0].Frame is { } outermost && Below(stack.Frames, outermost) is var (index, kind) && kind != RunnerKind.None
            && !Runs(kind, physical[0], code))
        {
            at = index;
            runs = kind;
        }
        if ((physical.Count == 0 || at >= 0 && physical[0].Frame is not null && IndexOf(stack.Frames, physical[0].Frame!) < at) && runs != RunnerKind.None)
        {
            if (stack.Frames.Skip(at).Take(2).Select(FrameKinds.StateMachineOf).FirstOrDefault(m => m is not null) is { } machine && code.Has(machine, "MoveNext"))
            {
                return (machine, "MoveNext");
            }
            return runs switch
            {
                RunnerKind.TaskBody => Only(code.TaskBodies.Where(body => Reaches(body))),
                RunnerKind.TimerCallback => Only(code.TimerCallbacks.Where(callback => Reaches(callback))),
                _ => null,
            };
        }
        switch (stack.Place)
        {
            case CodePlace.MinimalApi:
                if (first is { } own && code.HandlerOf(own.Type, own.Method) is not null)
                {
                    return null;
                }
                var handlers = code.Endpoints.Where(e => Reaches(e.Handler)).ToList();
                if (endpoint is not null && handlers.Count > 1)
                {
                    handlers = [.. handlers.Where(e => RouteMatches(e, endpoint))];
                }
                if (handlers.Count > 1 && inlined.Count > 0)
                {
                    handlers = [.. handlers.Where(e => inlined.Contains(e.Handler))];
                }
                return handlers.Count == 1 ? handlers[0].Handler : null;
            case CodePlace.MvcAction or CodePlace.RazorPage:
                if (endpoint?.Action is { } action && code.Has(action.TypeName, action.MethodName))
                {
                    return first == (action.TypeName, action.MethodName) ? null : (action.TypeName, action.MethodName);
                }
                if (first is { } frame && code.ActionCandidates(page: stack.Place == CodePlace.RazorPage).Contains(frame))
                {
                    return null;
                }
                // A method only handed on as a delegate (a Task.Run body) runs elsewhere: it cannot be what was inlined here.
                return Only(code.ActionCandidates(page: stack.Place == CodePlace.RazorPage).Where(a => Reaches(a, followDelegates: false)));
            case CodePlace.Middleware or CodePlace.Filter:
                var entries = stack.Place == CodePlace.Filter ? FilterEntries : MiddlewareEntries;
                if (first is { } entry && entries.Contains(entry.Method))
                {
                    return null;
                }
                return Only(entries.SelectMany(code.MethodsNamed).Where(e => Reaches(e)));
            default:
                return null;
        }
    }

    // The runner right below a frame (unresolved frames aside), with its index.
    private static (int Index, RunnerKind Kind) Below(IReadOnlyList<StackFrame> frames, StackFrame frame)
    {
        var i = IndexOf(frames, frame) + 1;
        while (i > 0 && i < frames.Count && frames[i].IsUnresolved)
        {
            i++;
        }
        return i > 0 && i < frames.Count ? (i, FrameKinds.RunnerOf(frames, i)) : (-1, RunnerKind.None);
    }

    // What a runner runs: a Task.Run body, a timer's callback, an async method's state machine.
    private static bool Runs(RunnerKind kind, Anchor anchor, ApplicationCode code) => kind switch
    {
        RunnerKind.TaskBody => code.TaskBodies.Contains(anchor.Raw) || code.TaskBodies.Contains(anchor.Written),
        RunnerKind.TimerCallback => code.TimerCallbacks.Contains(anchor.Raw) || code.TimerCallbacks.Contains(anchor.Written),
        RunnerKind.StateMachine => anchor.Raw.Method == "MoveNext",
        _ => true,
    };

    private static int IndexOf(IReadOnlyList<StackFrame> frames, StackFrame frame)
    {
        for (var i = 0; i < frames.Count; i++)
        {
            if (ReferenceEquals(frames[i], frame))
            {
                return i;
            }
        }
        return -1;
    }

    private static (string Type, string Method)? Only(IEnumerable<(string Type, string Method)> candidates)
    {
        var list = candidates.Distinct().Take(2).ToList();
        return list.Count == 1 ? list[0] : null;
    }

    /// <summary>The registration's verb and route against the request's (constraints aside, case aside); a prefix the IL could not see is forgiven.</summary>
    public static bool RouteMatches(EndpointRegistration registration, Endpoint endpoint)
    {
        ArgumentNullException.ThrowIfNull(registration);
        ArgumentNullException.ThrowIfNull(endpoint);
        if (registration.Verb != AspNetVocabulary.AnyMethod && !string.Equals(registration.Verb, endpoint.Method, StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }
        var route = Normalized(registration.Route);
        var seen = Normalized(endpoint.Route);
        return route == seen || seen.EndsWith(route, StringComparison.Ordinal) && route.Length > 1;
    }

    /// <summary><c>/Orders/{id:int}/</c> → <c>/orders/{id}</c>.</summary>
    public static string Normalized(string route) => "/" + WithoutConstraints(route).Trim('/').ToLowerInvariant();

    /// <summary><c>/orders/{id:int}</c> → <c>/orders/{id}</c>: the route as a user reads it (<see cref="AspNetVocabulary.WithoutConstraints"/>).</summary>
    public static string WithoutConstraints(string route) => AspNetVocabulary.WithoutConstraints(route);
}
