using Tplab.Blocking;
using Tplab.Diagnose.Chains;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Requests;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose;

/// <summary>What diagnose reads besides the stacks: the application's IL, its PDBs, the JIT's inlining events.</summary>
internal sealed record CodeReaders(ApplicationCode? Code, SourceLines? Lines, InlineIndex? Inlines)
{
    public static readonly CodeReaders None = new(null, null, null);

    /// <summary>The IL, when at least one application assembly could be read.</summary>
    public ApplicationCode? Il => Code is { MethodCount: > 0 } code ? code : null;
}

/// <summary>What one blocked stack is attributed to: the method that made the call, the chain to it, the call as written, the place.</summary>
internal sealed record Attribution(UserMethod? User, IReadOnlyList<ChainHop> Chain, BlockingCall Call, CodePlace Place, CallContext Context, Endpoint? Endpoint)
{
    /// <summary>For a dependency-injection factory: the service it builds (<c>Shop.IFxRates</c>), when the registration says.</summary>
    public string? Service { get; init; }
}

/// <summary>
/// Names the application code behind a blocked stack when the stack alone does not: the chain from its root to the
/// blocking call with what the JIT inlined put back from the IL (<see cref="ChainBuilder"/>), each hop's line from the
/// PDBs, the call as the developer wrote it, the place of work items whose stack holds no framework frame, and the
/// endpoint from the IL when the events did not link the thread to its request.
/// </summary>
internal static class CulpritAttribution
{
    public static Attribution Attribute(BlockedStack stack, Endpoint? endpoint, CodeReaders readers)
    {
        ArgumentNullException.ThrowIfNull(stack);
        ArgumentNullException.ThrowIfNull(readers);
        if (readers.Il is not { } code)
        {
            return StackOnly(stack, endpoint, readers.Lines);
        }
        var isTarget = Targets(stack.Call);
        var physical = stack.Chain.Where(m => m.Frame is not null).Select(m => Anchor.Of(m.Frame!)).ToList();
        stack = WhichInvoker(stack, code, physical, isTarget, endpoint);
        var anchors = new List<Anchor>();
        if (ChainRoots.Find(stack, endpoint, code, readers.Inlines, physical, isTarget) is { } root)
        {
            anchors.Add(new Anchor(root, null));
        }
        anchors.AddRange(physical);
        // Nothing anchors the search (a minimal API whose requests started before the capture, all of it inlined): a call
        // that only one method of the application makes was made there.
        if (anchors.Count == 0 && stack.Boundary is not null && code.OnlyCaller(isTarget) is { } only)
        {
            anchors.Add(new Anchor(only, null));
        }
        if (anchors.Count == 0)
        {
            return StackOnly(stack, endpoint, readers.Lines);
        }
        var (hops, site) = new ChainBuilder(code, readers.Lines).Build(anchors, isTarget);
        var call = AsWritten(stack.Call, site);
        var place = PlaceOf(stack, hops, endpoint, code);
        var service = place == CodePlace.DiFactory ? ServiceOf(hops, code) : null;
        endpoint ??= EndpointOf(hops, code);
        var named = hops.Select(h => h with { Name = NameOf(h, endpoint, code) }).ToList();
        // Whether the method that makes the call is async is a fact of that method, whatever the JIT inlined into what.
        var user = named[^1];
        var isAsync = user.Method.Shape == UserFrameShape.AsyncStateMachine || code.IsAsync(user.Raw.Type, user.Raw.Method);
        var context = (stack.Context & ~CallContext.AsyncMethod)
            | (isAsync ? CallContext.AsyncMethod : CallContext.None)
            | (place is CodePlace.MinimalApi or CodePlace.MvcAction && stack.Place != place ? CallContext.RequestPath : CallContext.None);
        return new Attribution(named[^1].Method, named, call, place, context, endpoint) { Service = service };
    }

    /// <summary>
    /// A dump's compiled invoker called straight from the application's middleware (ClrMD cannot say how many parameters
    /// it takes): an endpoint's when a handler or action reaches the code above it, a middleware's when only a
    /// middleware's entry point does.
    /// </summary>
    private static BlockedStack WhichInvoker(BlockedStack stack, ApplicationCode code, IReadOnlyList<Anchor> physical, Func<string, string, bool> isTarget, Endpoint? request)
    {
        if (stack.Boundary is not { ParameterCount: -1 } invoker || !FrameKinds.IsCompiledLambda(invoker) || stack.Place != CodePlace.MinimalApi)
        {
            return stack;
        }
        var want = physical.Count > 0 ? ChainBuilder.Calling(physical[0], code) : isTarget;
        bool Reaches((string Type, string Method) m) => code.Reaches(m.Type, m.Method, want, followDelegates: false);
        // The request the thread serves (read from the dump's heap) narrows the endpoint to its own handler or action.
        var handlers = code.Endpoints.Where(e => request is null || ChainRoots.RouteMatches(e, request)).Select(e => e.Handler);
        var actions = request?.Action is { } action ? [(action.TypeName, action.MethodName)] : request is null ? code.ActionCandidates(page: false) : [];
        var endpoint = handlers.Any(Reaches) || actions.Any(Reaches);
        var middleware = ChainRoots.MiddlewareEntries.SelectMany(code.MethodsNamed).Any(Reaches);
        return middleware && !endpoint ? stack with { Place = CodePlace.Middleware } : stack;
    }

    /// <summary>Without readable IL: the application frames the stack shows, with their lines when the PDBs can be read.</summary>
    private static Attribution StackOnly(BlockedStack stack, Endpoint? endpoint, SourceLines? lines)
    {
        var hops = stack.Chain.Where(m => m.Frame is not null)
            .Select(m => new ChainHop(m, ApplicationCode.Written(m.Frame!.OpenTypeName, m.Frame.MethodName), HopSource.Stack)
            {
                At = m.Frame.Code is { Offset: >= 0 } at ? lines?.At(at) : null,
            })
            .ToList();
        var user = stack.User;
        // An MVC action inlined into its compiled invoker: MVC's event names it.
        if (user is null && stack.Place is CodePlace.MvcAction or CodePlace.RazorPage && endpoint?.Action is { } action)
        {
            user = UserMethod.Named(action.TypeName, action.MethodName);
        }
        return new Attribution(user, hops, stack.Call, stack.Place, stack.Context, endpoint);
    }

    /// <summary>
    /// Where a work item with no framework frame below it runs (a <c>Task.Run</c> body, a continuation after an await): the
    /// hosted service's when its chain starts in a type that is one (the IL says so where the classifier could only go by the
    /// name <c>ExecuteAsync</c>); a request's when its chain holds that request's MVC action, or a handler the application
    /// hands to <c>Map*</c>; a dependency-injection factory when its root is one the application registers.
    /// </summary>
    private static CodePlace PlaceOf(BlockedStack stack, IReadOnlyList<ChainHop> chain, Endpoint? endpoint, ApplicationCode code)
    {
        if (chain.Count > 0 && code.FactoryOf(chain[0].Raw.Type, chain[0].Raw.Method) is not null)
        {
            return CodePlace.DiFactory;
        }
        if (stack.Place is not (CodePlace.Unknown or CodePlace.HostedService or CodePlace.Timer)
            || stack.Frames.Any(f => f.TypeName.StartsWith("Microsoft.Extensions.Hosting.", StringComparison.Ordinal)))
        {
            return stack.Place;
        }
        if (stack.Place != CodePlace.Timer && chain.Any(h => code.IsHostedService(h.Raw.Type) || code.IsHostedService(h.Method.TypeName)))
        {
            return CodePlace.HostedService;
        }
        var place = stack.Place == CodePlace.HostedService ? CodePlace.Unknown : stack.Place;
        // A continuation's stack runs from the awaited method that completed (at the bottom) up through the methods that
        // awaited it: the handler or action is one of them, not necessarily the outermost. A timer's callback that runs a
        // request's handler is the continuation of its Task.Delay.
        var owners = chain.SelectMany(h => Owners(h, code)).ToList();
        if (endpoint?.Action is { } action && owners.Contains((action.TypeName, action.MethodName)))
        {
            return CodePlace.MvcAction;
        }
        if (owners.Any(o => code.HandlerOf(o.Type, o.Method) is not null))
        {
            return CodePlace.MinimalApi;
        }
        var actions = code.ActionCandidates(page: false).ToHashSet();
        return owners.Any(actions.Contains) ? CodePlace.MvcAction : place;
    }

    /// <summary>
    /// The methods a hop belongs to: itself, the method its lambda is written in, and the method that hands it on as a
    /// delegate (a handler's <c>Task.Run(() => ...)</c> body belongs to the handler, which the endpoint runs).
    /// </summary>
    private static IEnumerable<(string Type, string Method)> Owners(ChainHop hop, ApplicationCode code)
    {
        yield return hop.Raw;
        yield return (hop.Method.TypeName, hop.Method.MethodName);
        var current = hop.Raw;
        for (var depth = 0; depth < 3 && code.DeclarerOf(current.Type, current.Method) is { } declarer; depth++)
        {
            yield return declarer;
            current = declarer;
        }
    }

    /// <summary>
    /// The endpoint a chain's handler or action serves, from the IL's registration or the action's route attributes, when
    /// the events did not link the thread to its request.
    /// </summary>
    private static Endpoint? EndpointOf(IReadOnlyList<ChainHop> chain, ApplicationCode code)
    {
        foreach (var (type, method) in chain.SelectMany(h => Owners(h, code)))
        {
            if (code.HandlerOf(type, method) is { } handler)
            {
                return new Endpoint(handler.Verb == AspNetVocabulary.AnyMethod ? "?" : handler.Verb, ChainRoots.WithoutConstraints(handler.Route), null);
            }
            if (code.ActionRoute(type, method) is { } action)
            {
                return new Endpoint(action.Verb == AspNetVocabulary.AnyMethod ? "?" : action.Verb, ChainRoots.WithoutConstraints(action.Route), new ActionName(type, method));
            }
        }
        return null;
    }

    private static string? ServiceOf(IReadOnlyList<ChainHop> chain, ApplicationCode code) =>
        chain.Count > 0 && code.FactoryOf(chain[0].Raw.Type, chain[0].Raw.Method) is { ServiceType: { } service } ? service
        : chain.Count > 0 && chain[0].Raw.Method == ".ctor" ? chain[0].Raw.Type
        : null;

    /// <summary>A hop's name as users know it: a minimal API handler by its endpoint (<c>GET /orders/{id} handler</c>).</summary>
    private static string NameOf(ChainHop hop, Endpoint? endpoint, ApplicationCode code)
    {
        // A handler written as a lambda has no name of its own: its route is its name. A method handed to Map keeps its own.
        if (hop.Method is not ({ Shape: UserFrameShape.Lambda } or { IsLambda: true }) || code.HandlerOf(hop.Raw.Type, hop.Raw.Method) is not { } registration)
        {
            return hop.Method.DisplayName;
        }
        var route = endpoint is not null && ChainRoots.RouteMatches(registration, endpoint)
            ? $"{endpoint.Method} {endpoint.Route}"
            : $"{(registration.Verb == AspNetVocabulary.AnyMethod ? "" : registration.Verb + " ")}{ChainRoots.WithoutConstraints(registration.Route)}";
        return route + " handler";
    }

    /// <summary>
    /// A call known only by the runtime's internal frames (<c>Task wait</c>: Task.Wait was inlined; <c>StreamReader read</c>:
    /// ReadToEnd was) is named as the application's IL wrote it at the call site found.
    /// </summary>
    public static BlockingCall AsWritten(BlockingCall call, CallSite? site)
    {
        ArgumentNullException.ThrowIfNull(call);
        if (site is not { } s || !call.Name.Contains(' ', StringComparison.Ordinal) || call.Kind == BlockingKind.Unrecognised)
        {
            return call;
        }
        return BlockingCallCatalogue.Match(new StackFrame("", s.Type, s.Method)) is { } written ? call with { Name = written.Name } : call;
    }

    /// <summary>Calls in the IL that are this blocking call: same catalogue name (<c>Task`1.get_Result</c> is <c>Task.Result</c>), or the same kind when the stack named it vaguely.</summary>
    internal static Func<string, string, bool> Targets(BlockingCall call) =>
        (type, method) => BlockingCallCatalogue.Match(new StackFrame("", type, method)) is { } match
            && (match.Name == call.Name || (match.Kind == call.Kind && call.Name.Contains(' ', StringComparison.Ordinal)));
}
