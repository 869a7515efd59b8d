using Tplab.Blocking;

namespace Tplab.Diagnose.Stacks;

/// <summary>
/// Classifies managed stacks (top frame first): is it a pool thread running a work item, is it held by a known
/// blocking call, and which application methods made that call. What single frames are lives in <see cref="FrameKinds"/>,
/// where the code runs in <see cref="PlaceRules"/>.
/// </summary>
public sealed class StackClassifier(LibraryCode library)
{
    public StackClassifier()
        : this(new LibraryCode())
    {
    }

    /// <summary>Pool worker idle, running a work item, or not a pool thread (<see cref="FrameKinds.RoleOf"/>).</summary>
    public static ThreadRole RoleOf(IReadOnlyList<StackFrame> frames) => FrameKinds.RoleOf(frames);

    /// <summary>The blocked stack, or null when this is not a pool work item or no catalogue call holds it.</summary>
    public BlockedStack? Classify(IReadOnlyList<StackFrame> frames) => Classify(frames, unrecognisedWait: false);

    /// <summary>
    /// As <see cref="Classify(IReadOnlyList{StackFrame})"/>; with <paramref name="unrecognisedWait"/> (the runtime
    /// reported a wait, or the thread sat outside managed code), a stack no catalogue entry explains is still
    /// returned, as an unrecognised wait named after its top frame, rather than dropped.
    /// </summary>
    public BlockedStack? Classify(IReadOnlyList<StackFrame> frames, bool unrecognisedWait)
    {
        if (RoleOf(frames) != ThreadRole.PoolWorkItem)
        {
            return null;
        }
        var (userIndex, boundaryIndex) = Locate(frames);
        var searchEnd = userIndex >= 0 ? userIndex : boundaryIndex >= 0 ? boundaryIndex : frames.Count;
        BlockingCall? call = null;
        var callIndex = -1;
        for (var i = 0; i < searchEnd; i++)
        {
            // Keep the outermost match: it is the call the application (or its framework) made.
            if (BlockingCallCatalogue.Match(frames[i]) is { } match && (call is not null || !BlockingCallCatalogue.OnlyAround(frames[i]))
                && !InsideAsyncApi(match, frames, i, searchEnd))
            {
                call = match;
                callIndex = i;
            }
        }
        call = BlockingCallCatalogue.Refine(call, frames, callIndex);
        if (call is null)
        {
            if (!unrecognisedWait || FrameKinds.IsIdleWait(frames))
            {
                return null;
            }
            call = BlockingCallCatalogue.Unrecognised(frames);
            callIndex = 0;
        }
        var user = userIndex >= 0 ? UserMethod.From(frames[userIndex]) : null;
        var chainEnd = boundaryIndex >= 0 ? boundaryIndex : FrameKinds.AspNetCoreBelow(frames, userIndex);
        var caller = callIndex + 1 < frames.Count ? frames[callIndex + 1] : null;
        var chain = ChainOf(frames, userIndex, chainEnd);
        var context = PlaceRules.ContextOf(frames, userIndex, user, library)
            | (userIndex < 0 && boundaryIndex >= 0 && FrameKinds.RunnerOf(frames, boundaryIndex) == RunnerKind.TaskBody ? CallContext.TaskRun : CallContext.None);
        return new BlockedStack(call, user, context, frames)
        {
            Chain = chain,
            Place = PlaceRules.PlaceOf(frames, userIndex, boundaryIndex, chain),
            Boundary = boundaryIndex >= 0 && (userIndex < 0 || userIndex > boundaryIndex) ? frames[boundaryIndex] : null,
            Caller = caller,
            FrameworkLock = call.Kind == BlockingKind.Lock && caller is not null && IsFrameworkCode(frames, callIndex + 1),
        };
    }

    /// <summary>
    /// Library code that cannot hold application code the JIT inlined into it: not ASP.NET Core's invokers (filters and
    /// actions are inlined into them through guarded devirtualization) and not a runner of delegates or state machines.
    /// </summary>
    private bool IsFrameworkCode(IReadOnlyList<StackFrame> frames, int index) =>
        !frames[index].IsUnresolved && library.IsLibrary(frames[index])
        && !frames[index].TypeName.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal)
        && FrameKinds.RunnerOf(frames, index) == RunnerKind.None;

    /// <summary>
    /// A driver method that an async API runs on its way (Npgsql's <c>ExecuteScalarAsync</c> calls <c>ExecuteScalar(async: true)</c>,
    /// <c>OpenAsync</c> calls <c>Open(async: true)</c>): the names match the catalogue's synchronous calls, but the thread only
    /// passes through (a socket send's system call, seen as an External sample). Below it, before the application, an
    /// <c>...Async</c> library method says which API was called. A real wait inside an async API still matches its own entry.
    /// </summary>
    private bool InsideAsyncApi(BlockingCall match, IReadOnlyList<StackFrame> frames, int index, int end)
    {
        if (match.Kind != BlockingKind.SyncDatabaseIO)
        {
            return false;
        }
        for (var i = index + 1; i < end; i++)
        {
            if (!frames[i].IsUnresolved && library.IsLibrary(frames[i]) && UserMethod.From(frames[i]).MethodName.EndsWith("Async", StringComparison.Ordinal))
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>
    /// The innermost application frame above the endpoint boundary, and that boundary: MVC's action executor or
    /// an endpoint's compiled request delegate. Application frames below the boundary (middleware) did not make the call.
    /// </summary>
    private (int User, int Boundary) Locate(IReadOnlyList<StackFrame> frames)
    {
        var user = -1;
        var sawCall = false;
        for (var i = 0; i < frames.Count; i++)
        {
            if (FrameKinds.IsEndpointBoundary(frames, i, library))
            {
                return (user, i);
            }
            var isCall = BlockingCallCatalogue.Match(frames[i]) is not null;
            // ASP.NET Core does not block by itself: a blocking call sitting on one of its frames was made by code the
            // JIT inlined into it (a filter into MVC's invoker, through PGO's guarded devirtualization), not by the
            // application frame further down (the middleware that only awaited next()).
            // Nor does the runtime's delegate runner (a Task.Run body's InnerInvoke, an async method's box): the body or
            // the state machine was inlined into it through the same guarded devirtualization.
            if (user < 0 && sawCall && !isCall
                && (frames[i].TypeName.StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal) || FrameKinds.RunnerOf(frames, i) != RunnerKind.None))
            {
                return (-1, i);
            }
            sawCall |= isCall;
            if (user < 0 && !library.IsLibrary(frames[i]))
            {
                user = i;
            }
        }
        return (user, -1);
    }

    private IReadOnlyList<UserMethod> ChainOf(IReadOnlyList<StackFrame> frames, int userIndex, int end)
    {
        if (userIndex < 0)
        {
            return [];
        }
        var chain = new List<UserMethod>();
        for (var i = end - 1; i >= userIndex; i--)
        {
            if (library.IsLibrary(frames[i]))
            {
                continue;
            }
            var method = UserMethod.From(frames[i]);
            // An async method shows twice (its stub and its state machine's MoveNext): one link, the state machine's
            // frame, whose IL offset is in the method's body.
            if (chain.Count == 0 || chain[^1].FullName != method.FullName)
            {
                chain.Add(method);
            }
            else
            {
                chain[^1] = method;
            }
        }
        return chain;
    }
}
