using Tplab.Blocking;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Requests;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose;

/// <summary>
/// Names the application method behind a group's stack when the stack alone does not: frames the JIT inlined away
/// (its inlining events, the application's IL, MVC's action event), the call as the developer wrote it, and the place
/// of work items whose stack holds no framework frame.
/// </summary>
internal static class CulpritAttribution
{
    /// <summary>
    /// The method to name and the chain to it. A frame the JIT inlined away is named from the JIT's inlining
    /// events (which application methods went into the frame that called the blocking API), or, for an MVC
    /// action inlined into MVC's compiled invoker, from MVC's own BeforeAction event.
    /// </summary>
    public static (UserMethod? User, IReadOnlyList<UserMethod> Chain, (string Type, string Method)? Raw) Attribute(
        BlockedStack stack, Endpoint? endpoint, InlineIndex? inlines, ApplicationCode? code)
    {
        var physical = stack.User?.Frame ?? stack.Boundary;
        var calledFromThere = physical is not null && ReferenceEquals(stack.Caller, physical);
        var isTarget = Targets(stack.Call);
        // The JIT's events say which methods went into a frame, not which of them made the call (the stub of an async
        // method whose task the frame then waits on goes in too). An application frame whose IL can be read is
        // settled by its IL below; the events name what went into framework frames, and into frames the IL cannot read.
        var readable = code is { MethodCount: > 0 } && stack.User?.Frame is { } own && code.Has(own.OpenTypeName, own.MethodName);
        if (calledFromThere && !readable && inlines?.InlinedInto(physical!) is { Count: > 0 } inlined)
        {
            var upTo = inlined.Count;
            while (code is { MethodCount: > 0 } && upTo > 1 && !code.Calls(inlined[upTo - 1].TypeName, inlined[upTo - 1].MethodName, isTarget))
            {
                upTo--;
            }
            return (inlined[upTo - 1], [.. stack.Chain, .. inlined.Take(upTo)], null);
        }
        // A user frame that called the blocking API but whose own IL does not: a method it calls was inlined into it.
        if (calledFromThere && stack.User is { Frame: { } frame } user && code is { MethodCount: > 0 }
            && !code.Calls(frame.OpenTypeName, frame.MethodName, isTarget)
            && code.PathTo(frame.OpenTypeName, frame.MethodName, isTarget) is { Count: > 0 } path)
        {
            var named = Named(path, user.DisplayName);
            return (named[^1], [.. stack.Chain, .. named], path[^1]);
        }
        if (stack.User is null && stack.Boundary is { } boundary)
        {
            // An MVC action or page handler inlined into its compiled invoker: MVC's event names it, the IL what it reached.
            if (stack.Place is CodePlace.MvcAction or CodePlace.RazorPage && endpoint?.Action is { } action)
            {
                var named = UserMethod.Named(action.TypeName, action.MethodName, boundary.FullName);
                if (calledFromThere && code is { MethodCount: > 0 } && !code.Calls(action.TypeName, action.MethodName, isTarget)
                    && code.PathTo(action.TypeName, action.MethodName, isTarget) is { Count: > 0 } reachedPath)
                {
                    var reached = Named(reachedPath, boundary.FullName);
                    return (reached[^1], [named, .. reached], reachedPath[^1]);
                }
                return (named, [named], (action.TypeName, action.MethodName));
            }
            // A middleware or filter inlined into the framework's frame: the one entry point whose code reaches the call.
            // (Only when the call sits right on that frame: a library frame between means the library made it.)
            if (calledFromThere && stack.Place is CodePlace.Middleware or CodePlace.Filter && code is { MethodCount: > 0 }
                && Entry(code, isTarget, (stack.Place == CodePlace.Filter ? FilterEntries : MiddlewareEntries).SelectMany(code.MethodsNamed)) is { } chain)
            {
                var named = Named(chain, boundary.FullName);
                return (named[^1], named, chain[^1]);
            }
            // An action whose request started before the capture, so no MVC event names it: the one action whose code reaches the call.
            if (calledFromThere && stack.Place is CodePlace.MvcAction or CodePlace.RazorPage && code is { MethodCount: > 0 }
                && Entry(code, isTarget, code.ActionCandidates(page: stack.Place == CodePlace.RazorPage), followDelegates: false) is { } actionChain)
            {
                var named = Named(actionChain, boundary.FullName);
                return (named[^1], named, actionChain[^1]);
            }
            // Nothing anchors the search (a minimal API whose requests started before the capture): a call that only
            // one method of the application makes was made there.
            if (calledFromThere && code is { MethodCount: > 0 } && code.OnlyCaller(isTarget) is { } only)
            {
                var named = UserMethod.Named(only.Type, only.Method, boundary.FullName);
                return (named, [named], only);
            }
        }
        return (stack.User, stack.Chain, stack.User?.Frame is { } f ? (f.OpenTypeName, f.MethodName) : null);
    }

    /// <summary>
    /// Where a work item with no framework frame below it runs (a <c>Task.Run</c> body, a continuation after an await):
    /// the hosted service's when its chain starts in a type that is one (the IL says so where the classifier could only
    /// go by the name <c>ExecuteAsync</c>); a request's when the wait's activity named the request and its chain holds
    /// that request's MVC action, or a handler the application hands to <c>Map*</c> (a minimal API).
    /// </summary>
    public static CodePlace PlaceOf(BlockedStack stack, IReadOnlyList<UserMethod> chain, Endpoint? endpoint, ApplicationCode? code)
    {
        if (stack.Place is not (CodePlace.Unknown or CodePlace.HostedService or CodePlace.Timer)
            || stack.Frames.Any(f => f.TypeName.StartsWith("Microsoft.Extensions.Hosting.", StringComparison.Ordinal)))
        {
            return stack.Place;
        }
        var readable = code is { MethodCount: > 0 };
        if (readable && stack.Place != CodePlace.Timer && chain.Any(m => code!.IsHostedService(m.TypeName)))
        {
            return CodePlace.HostedService;
        }
        var place = readable && stack.Place == CodePlace.HostedService ? CodePlace.Unknown : stack.Place;
        // A timer's callback that carries a request's activity was set by the request (the continuation of its Task.Delay).
        if (place is not (CodePlace.Unknown or CodePlace.Timer) || endpoint is null || chain.Count == 0)
        {
            return place;
        }
        // A continuation's stack runs from the awaited method that completed (at the bottom) up through the methods that
        // awaited it: the handler or action is one of them, not necessarily the outermost.
        if (endpoint.Action is { } action && chain.Any(m => m.TypeName == action.TypeName && m.MethodName == action.MethodName))
        {
            return CodePlace.MvcAction;
        }
        return readable && chain.Any(m => m.Frame is { } frame && WrittenMethod(frame) is var (type, method) && code!.IsEndpointHandler(type, method))
            ? CodePlace.MinimalApi
            : place;
    }

    // An async method's or lambda's state machine ("T+<>c+<<Map>b__1_0>d.MoveNext") runs the method "T+<>c.<Map>b__1_0".
    private static (string Type, string Method) WrittenMethod(StackFrame frame) =>
        frame.MethodName == "MoveNext" && ApplicationCode.AsyncMethodOf(frame.OpenTypeName) is { } written ? written : (frame.OpenTypeName, frame.MethodName);

    /// <summary>
    /// A call known only by the runtime's internal frames (<c>Task wait</c>: Task.Wait was inlined) is named as the
    /// application's IL wrote it (<c>Task.Wait</c>), when the method that made it is known.
    /// </summary>
    public static BlockingCall AsWritten(BlockingCall call, (string Type, string Method)? raw, ApplicationCode? code)
    {
        if (raw is not { } method || code is not { MethodCount: > 0 } || !call.Name.Contains(' ', StringComparison.Ordinal) || call.Kind == BlockingKind.Unrecognised)
        {
            return call;
        }
        return code.CalleeMatching(method.Type, method.Method, Targets(call)) is { } callee
            && BlockingCallCatalogue.Match(new StackFrame("", callee.Type, callee.Method)) is { } written
            ? call with { Name = written.Name }
            : call;
    }

    private static readonly string[] MiddlewareEntries = ["InvokeAsync", "Invoke"];

    private static readonly string[] FilterEntries =
    [
        "OnActionExecuting", "OnActionExecuted", "OnActionExecutionAsync", "OnResourceExecuting", "OnResourceExecutionAsync",
        "OnAuthorization", "OnAuthorizationAsync", "OnResultExecuting", "OnResultExecutionAsync", "OnException", "OnExceptionAsync",
    ];

    private static IReadOnlyList<(string Type, string Method)>? Entry(
        ApplicationCode code, Func<string, string, bool> isTarget, IEnumerable<(string Type, string Method)> entries, bool followDelegates = true)
    {
        var found = new List<IReadOnlyList<(string Type, string Method)>>();
        foreach (var entry in entries)
        {
            if (code.Calls(entry.Type, entry.Method, isTarget))
            {
                found.Add([entry]);
            }
            else if (code.PathTo(entry.Type, entry.Method, isTarget, followDelegates) is { Count: > 0 } path)
            {
                found.Add([entry, .. path]);
            }
        }
        return found.Count == 1 ? found[0] : null;
    }

    // The whole chain went into the compiled frame that is on the stack.
    private static List<UserMethod> Named(IReadOnlyList<(string Type, string Method)> path, string into) =>
        [.. path.Select(p => UserMethod.Named(p.Type, p.Method, into))];

    /// <summary>Calls in the IL that are this blocking call: same catalogue name (<c>Task`1.get_Result</c> is <c>Task.Result</c>).</summary>
    private static Func<string, string, bool> Targets(BlockingCall call) =>
        (type, method) => BlockingCallCatalogue.Match(new StackFrame("", type, method)) is { } match
            && (match.Name == call.Name || (match.Kind == call.Kind && call.Name.Contains(' ', StringComparison.Ordinal)));
}
