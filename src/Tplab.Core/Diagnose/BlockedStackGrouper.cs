using Tplab.Blocking;
using Tplab.Diagnose.Capture;
using Tplab.Diagnose.Chains;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Requests;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose;

/// <summary>What the stacks of a capture say overall, beside the culprits.</summary>
/// <param name="PoolThreadsSeen">Different thread-pool workers in the samples (idle or busy).</param>
/// <param name="BlockedThreads">Pool threads held by a catalogue call, on average over the capture (all groups, reported or not).</param>
/// <param name="Observations">Blocked observations kept (External samples and wait events on pool threads).</param>
public sealed record StackSummary(int PoolThreadsSeen, double BlockedThreads, int Observations);

/// <summary>
/// Aggregates observations one at a time (<see cref="Add"/>) into groups keyed by (blocking call, user method — or,
/// when the method's frame is gone, the endpoint), then ranks them (<see cref="Complete"/>) by pool threads held.
/// Completing works on copies of the groups: it can be called again, and gives the same answer.
/// </summary>
public sealed class BlockedStackGrouper
{
    private readonly StackClassifier _classifier;
    private readonly int _stackFrames;
    private readonly CodeReaders _readers;
    private readonly Dictionary<(string Call, string? Who), BlockedStackAccumulator> _groups = [];
    private readonly Dictionary<(IReadOnlyList<StackFrame>, bool), BlockedStack?> _classified = new(new StackKeyComparer());
    private readonly Dictionary<(BlockedStack, Endpoint?), Attribution> _attributed = new(new AttributionKeyComparer());
    private readonly HashSet<int> _poolThreads = [];
    private readonly Dictionary<string, HashSet<Endpoint>> _endpointsByDelegate = new(StringComparer.Ordinal);
    private double _heldMs;
    private int _observations;

    public BlockedStackGrouper(StackClassifier classifier, int stackFrames, InlineIndex? inlines = null, ApplicationCode? code = null, SourceLines? lines = null)
    {
        _classifier = classifier;
        _stackFrames = stackFrames;
        _readers = new CodeReaders(code, lines, inlines);
    }

    /// <summary>Notes a pool thread seen in any sample (busy or idle), for the summary.</summary>
    public void SeeThread(int threadId, IReadOnlyList<StackFrame> frames)
    {
        if (FrameKinds.RoleOf(frames) != ThreadRole.NotPool)
        {
            _poolThreads.Add(threadId);
        }
    }

    /// <summary>Adds one observation; ignored unless it is a pool work item held by a blocking call.</summary>
    public void Add(ThreadObservation observation, Endpoint? endpoint = null)
    {
        ArgumentNullException.ThrowIfNull(observation);
        // A wait the runtime reported, or a long stretch outside managed code, is kept even when no catalogue entry knows it.
        var unrecognised = observation.Source == ObservationSource.WaitEvent;
        var key = (observation.Frames, unrecognised);
        // Stacks are shared between events by TraceReader, so classify each distinct stack once.
        if (!_classified.TryGetValue(key, out var blocked))
        {
            blocked = _classifier.Classify(observation.Frames, unrecognised);
            _classified[key] = blocked;
        }
        if (blocked is null)
        {
            return;
        }
        _poolThreads.Add(observation.ThreadId);
        _heldMs += observation.HeldMs;
        _observations++;
        // Without an application frame, the endpoint tells apart what would otherwise be one anonymous group.
        var who = blocked.User?.FullName ?? endpoint?.ToString() ?? blocked.Boundary?.FullName;
        var groupKey = (blocked.Call.Name + "|" + blocked.Call.On, who);
        if (!_groups.TryGetValue(groupKey, out var group))
        {
            _groups[groupKey] = group = new BlockedStackAccumulator();
        }
        var compiled = EndpointDelegate(observation.Frames);
        if (endpoint is not null && compiled is not null)
        {
            if (!_endpointsByDelegate.TryGetValue(compiled, out var seen))
            {
                _endpointsByDelegate[compiled] = seen = [];
            }
            seen.Add(endpoint);
        }
        group.Add(observation, blocked, endpoint, compiled);
    }

    /// <summary>
    /// The endpoint's compiled request delegate on the stack (<c>dynamicClass.lambda_method37</c>): ASP.NET Core compiles
    /// one per minimal API endpoint or MVC action, so requests that ran it ran the same endpoint. UseMiddleware's
    /// invokers (4 parameters) serve every endpoint and are passed over.
    /// </summary>
    private static string? EndpointDelegate(IReadOnlyList<StackFrame> frames)
    {
        foreach (var frame in frames)
        {
            if (FrameKinds.IsCompiledLambda(frame) && !FrameKinds.IsMiddlewareInvoker(frame))
            {
                return frame.FullName;
            }
        }
        return null;
    }

    /// <summary>The groups holding at least <paramref name="minimumThreads"/> pool threads on average, most threads first, and the summary.</summary>
    public (IReadOnlyList<BlockedStackGroup> Groups, StackSummary Summary) Complete(TimeSpan captured, double minimumThreads)
    {
        var captureMs = Math.Max(captured.TotalMilliseconds, 1);
        var groups = _groups.ToDictionary(g => g.Key, g => g.Value.Clone());
        groups = LinkEndpoints(groups);
        MergeAnonymous(groups);
        // Stacks classified apart can be attributed alike (the same wait at Tier 0 and, inlined, at Tier 1): one culprit.
        var named = new Dictionary<string, BlockedStackAccumulator>(StringComparer.Ordinal);
        foreach (var group in groups.Values)
        {
            var (sample, attribution) = group.Attributed(Attribute);
            var key = BlockedStackAccumulator.NameOf(sample, attribution);
            if (named.TryGetValue(key, out var home))
            {
                home.Absorb(group);
            }
            else
            {
                named[key] = group;
            }
        }
        var result = named.Values
            .Select(g =>
            {
                var (sample, attribution) = g.Attributed(Attribute);
                return g.ToGroup(captureMs, _heldMs, _stackFrames, sample, attribution);
            })
            .Where(g => g.Threads >= minimumThreads && g.Threads > 0)
            .OrderByDescending(g => g.Threads)
            .ThenBy(g => g.UserFrame?.FullName, StringComparer.Ordinal)
            .ToList();
        return (CausesFirst(result), new StackSummary(_poolThreads.Count, _heldMs / captureMs, _observations));
    }

    private Attribution Attribute(BlockedStack stack, Endpoint? endpoint)
    {
        if (!_attributed.TryGetValue((stack, endpoint), out var attribution))
        {
            attribution = CulpritAttribution.Attribute(stack, endpoint, _readers);
            _attributed[(stack, endpoint)] = attribution;
        }
        return attribution;
    }

    /// <summary>
    /// Names the endpoint of observations whose request started before the capture from the compiled delegate they ran;
    /// a group without an application method was keyed by its endpoint, so groups that now share one become one.
    /// </summary>
    private Dictionary<(string Call, string? Who), BlockedStackAccumulator> LinkEndpoints(Dictionary<(string Call, string? Who), BlockedStackAccumulator> groups)
    {
        var linked = new Dictionary<(string Call, string? Who), BlockedStackAccumulator>();
        foreach (var ((call, who), group) in groups)
        {
            group.LinkEndpoints(_endpointsByDelegate);
            var key = (call, group.HasUser ? who : group.TopEndpoint?.ToString() ?? who);
            if (linked.TryGetValue(key, out var home))
            {
                home.Absorb(group);
            }
            else
            {
                linked[key] = group;
            }
        }
        return linked;
    }

    /// <summary>
    /// A group with neither a method nor an endpoint (a request that started before the capture, its code inlined
    /// into a compiled frame) joins the one named group with the same call and place, when there is exactly one.
    /// </summary>
    private static void MergeAnonymous(Dictionary<(string Call, string? Who), BlockedStackAccumulator> groups)
    {
        foreach (var (key, anonymous) in groups.Where(g => g.Value.IsAnonymous).ToList())
        {
            var homes = groups.Where(g => !g.Value.IsAnonymous && g.Key.Call == key.Call && g.Value.Place == anonymous.Place).ToList();
            if (homes.Count == 1)
            {
                homes[0].Value.Absorb(anonymous);
                groups.Remove(key);
            }
        }
    }

    // Threads queued on the DI container's lock wait for another thread's service factory: that factory's
    // blocking call is the cause and ranks first, however many threads pile up behind the lock.
    private static List<BlockedStackGroup> CausesFirst(List<BlockedStackGroup> groups)
    {
        if (!groups.Any(g => g.BlockingCall.ContainerLock) || !groups.Any(InFactory))
        {
            return groups;
        }
        return [.. groups.Where(InFactory), .. groups.Where(g => !InFactory(g) && !g.BlockingCall.ContainerLock), .. groups.Where(g => g.BlockingCall.ContainerLock)];

        static bool InFactory(BlockedStackGroup g) => !g.BlockingCall.ContainerLock && g.Place == CodePlace.DiFactory;
    }

    private sealed class StackKeyComparer : IEqualityComparer<(IReadOnlyList<StackFrame> Frames, bool Unrecognised)>
    {
        public bool Equals((IReadOnlyList<StackFrame> Frames, bool Unrecognised) x, (IReadOnlyList<StackFrame> Frames, bool Unrecognised) y) =>
            ReferenceEquals(x.Frames, y.Frames) && x.Unrecognised == y.Unrecognised;

        public int GetHashCode((IReadOnlyList<StackFrame> Frames, bool Unrecognised) obj) =>
            HashCode.Combine(System.Runtime.CompilerServices.RuntimeHelpers.GetHashCode(obj.Frames), obj.Unrecognised);
    }

    private sealed class AttributionKeyComparer : IEqualityComparer<(BlockedStack Stack, Endpoint? Endpoint)>
    {
        public bool Equals((BlockedStack Stack, Endpoint? Endpoint) x, (BlockedStack Stack, Endpoint? Endpoint) y) =>
            ReferenceEquals(x.Stack, y.Stack) && Equals(x.Endpoint, y.Endpoint);

        public int GetHashCode((BlockedStack Stack, Endpoint? Endpoint) obj) =>
            HashCode.Combine(System.Runtime.CompilerServices.RuntimeHelpers.GetHashCode(obj.Stack), obj.Endpoint);
    }
}
