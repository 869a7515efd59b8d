using Tplab.Blocking;
using Tplab.Diagnose.Capture;
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
/// when the method's frame is gone, the endpoint), then ranks them once (<see cref="Complete"/>) by pool threads held.
/// </summary>
public sealed class BlockedStackGrouper(StackClassifier classifier, int stackFrames, InlineIndex? inlines = null, ApplicationCode? code = null)
{
    private readonly Dictionary<(string Call, string? Who), Accumulator> _groups = [];
    private readonly Dictionary<(IReadOnlyList<StackFrame>, bool), BlockedStack?> _classified = new(new StackKeyComparer());
    private readonly HashSet<int> _poolThreads = [];
    private readonly Dictionary<string, HashSet<Endpoint>> _endpointsByDelegate = new(StringComparer.Ordinal);
    private double _heldMs;
    private int _observations;

    /// <summary>Notes a pool thread seen in any sample (busy or idle), for the summary.</summary>
    public void SeeThread(int threadId, IReadOnlyList<StackFrame> frames)
    {
        if (StackClassifier.RoleOf(frames) != ThreadRole.NotPool)
        {
            _poolThreads.Add(threadId);
        }
    }

    /// <summary>Adds one observation; ignored unless it is a pool work item held by a blocking call.</summary>
    public void Add(ThreadObservation observation, Endpoint? endpoint = null)
    {
        // A wait the runtime reported, or a long stretch outside managed code, is kept even when no catalogue entry knows it.
        var unrecognised = observation.Source == ObservationSource.WaitEvent;
        var key = (observation.Frames, unrecognised);
        // Stacks are shared between events by TraceReader, so classify each distinct stack once.
        if (!_classified.TryGetValue(key, out var blocked))
        {
            blocked = classifier.Classify(observation.Frames, unrecognised);
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
            _groups[groupKey] = group = new Accumulator();
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
            if (frame.TypeName.StartsWith("dynamicClass", StringComparison.Ordinal) && frame.MethodName.StartsWith("lambda_method", StringComparison.Ordinal)
                && frame.ParameterCount != 4)
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
        LinkEndpoints();
        MergeAnonymous();
        // Stacks classified apart can be attributed alike (the same wait at Tier 0 and, inlined, at Tier 1): one culprit.
        var named = new Dictionary<string, Accumulator>(StringComparer.Ordinal);
        foreach (var group in _groups.Values)
        {
            var key = group.Named(inlines, code);
            if (named.TryGetValue(key, out var home))
            {
                home.Absorb(group);
            }
            else
            {
                named[key] = group;
            }
        }
        var groups = named.Values
            .Select(g => g.ToGroup(captureMs, _heldMs, stackFrames, inlines, code))
            .Where(g => g.Threads >= minimumThreads && g.Threads > 0)
            .OrderByDescending(g => g.Threads)
            .ThenBy(g => g.UserFrame?.FullName, StringComparer.Ordinal)
            .ToList();
        return (CausesFirst(groups), new StackSummary(_poolThreads.Count, _heldMs / captureMs, _observations));
    }

    /// <summary>
    /// Names the endpoint of observations whose request started before the capture from the compiled delegate they ran;
    /// a group without an application method was keyed by its endpoint, so groups that now share one become one.
    /// </summary>
    private void LinkEndpoints()
    {
        var linked = new Dictionary<(string Call, string? Who), Accumulator>();
        foreach (var ((call, who), group) in _groups)
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
        _groups.Clear();
        foreach (var (key, group) in linked)
        {
            _groups[key] = group;
        }
    }

    /// <summary>
    /// A group with neither a method nor an endpoint (a request that started before the capture, its code inlined
    /// into a compiled frame) joins the one named group with the same call and place, when there is exactly one.
    /// </summary>
    private void MergeAnonymous()
    {
        foreach (var (key, anonymous) in _groups.Where(g => g.Value.IsAnonymous).ToList())
        {
            var homes = _groups.Where(g => !g.Value.IsAnonymous && g.Key.Call == key.Call && g.Value.Place == anonymous.Place).ToList();
            if (homes.Count == 1)
            {
                homes[0].Value.Absorb(anonymous);
                _groups.Remove(key);
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

        static bool InFactory(BlockedStackGroup g) =>
            !g.BlockingCall.ContainerLock && g.Stack.Any(f => f.StartsWith("Microsoft.Extensions.DependencyInjection.ServiceLookup.", StringComparison.Ordinal));
    }

    private sealed class Accumulator
    {
        private readonly HashSet<int> _threads = [];
        private readonly Dictionary<BlockedStack, double> _stacks = new(ReferenceEqualityComparer.Instance);
        private readonly Dictionary<Endpoint, double> _endpoints = [];
        private readonly Dictionary<string, double> _unlinked = new(StringComparer.Ordinal);
        private double _heldMs;

        /// <summary>No application method on its stacks and no endpoint from the events.</summary>
        public bool IsAnonymous => _endpoints.Count == 0 && _stacks.Keys.All(s => s.User is null);

        public CodePlace Place => _stacks.MaxBy(s => s.Value).Key.Place;

        /// <summary>Its stacks have an application frame (the group is keyed by it).</summary>
        public bool HasUser => _stacks.Keys.Any(s => s.User is not null);

        /// <summary>The endpoint that held its threads longest, or null.</summary>
        public Endpoint? TopEndpoint => _endpoints.Count > 0 ? _endpoints.MaxBy(e => e.Value).Key : null;

        public void Absorb(Accumulator other)
        {
            _threads.UnionWith(other._threads);
            _heldMs += other._heldMs;
            foreach (var (stack, ms) in other._stacks)
            {
                _stacks[stack] = _stacks.GetValueOrDefault(stack) + ms;
            }
            foreach (var (endpoint, ms) in other._endpoints)
            {
                _endpoints[endpoint] = _endpoints.GetValueOrDefault(endpoint) + ms;
            }
        }

        private (BlockedStack Sample, UserMethod? User, IReadOnlyList<UserMethod> Chain) Attributed(InlineIndex? inlines, ApplicationCode? code)
        {
            // The stack that held threads longest stands for the group, and its context shapes the advice
            // (one with an application frame, when an anonymous group was merged in).
            var sample = (_stacks.Any(s => s.Key.User is not null) ? _stacks.Where(s => s.Key.User is not null) : _stacks).MaxBy(s => s.Value).Key;
            var endpoint = TopEndpoint;
            var (user, chain, raw) = CulpritAttribution.Attribute(sample, endpoint, inlines, code);
            return (sample with { Call = CulpritAttribution.AsWritten(sample.Call, raw, code), Place = CulpritAttribution.PlaceOf(sample, chain, endpoint, code) }, user, chain);
        }

        public void Add(ThreadObservation observation, BlockedStack stack, Endpoint? endpoint, string? compiled)
        {
            _threads.Add(observation.ThreadId);
            _heldMs += observation.HeldMs;
            _stacks[stack] = _stacks.GetValueOrDefault(stack) + observation.HeldMs;
            if (endpoint is not null)
            {
                _endpoints[endpoint] = _endpoints.GetValueOrDefault(endpoint) + observation.HeldMs;
            }
            else if (compiled is not null)
            {
                _unlinked[compiled] = _unlinked.GetValueOrDefault(compiled) + observation.HeldMs;
            }
        }

        /// <summary>
        /// A request that started before the capture has no start event to name it (the slow service factory that made
        /// every later request queue): other requests that ran the same compiled endpoint delegate name its endpoint.
        /// </summary>
        public void LinkEndpoints(IReadOnlyDictionary<string, HashSet<Endpoint>> byDelegate)
        {
            foreach (var (compiled, ms) in _unlinked)
            {
                if (byDelegate.TryGetValue(compiled, out var endpoints) && endpoints.Count == 1)
                {
                    var endpoint = endpoints.Single();
                    _endpoints[endpoint] = _endpoints.GetValueOrDefault(endpoint) + ms;
                }
            }
            _unlinked.Clear();
        }

        /// <summary>What the group will be reported as: the call as written, on what, and by which method (or endpoint).</summary>
        public string Named(InlineIndex? inlines, ApplicationCode? code)
        {
            var (sample, user, _) = Attributed(inlines, code);
            return $"{sample.Call.Name}|{sample.Call.On}|{user?.FullName ?? TopEndpoint?.ToString() ?? sample.Boundary?.FullName}";
        }

        public BlockedStackGroup ToGroup(double captureMs, double allHeldMs, int stackFrames, InlineIndex? inlines, ApplicationCode? code)
        {
            var (sample, user, chain) = Attributed(inlines, code);
            var endpoint = TopEndpoint;
            return new BlockedStackGroup(
                sample.Call,
                user,
                sample.Context,
                _heldMs / captureMs,
                _threads.Count,
                allHeldMs > 0 ? _heldMs / allHeldMs : 0,
                TimeSpan.FromMilliseconds(_heldMs),
                StackTrimmer.Trim(sample, stackFrames),
                sample.Advice(user, chain.Count > 0 ? chain[0] : null))
            {
                Endpoint = endpoint,
                OtherEndpoints = Math.Max(0, _endpoints.Count - 1),
                Chain = chain,
                Place = sample.Place,
                InlinedInto = user is null ? sample.Boundary?.FullName : null,
            };
        }
    }

    private sealed class StackKeyComparer : IEqualityComparer<(IReadOnlyList<StackFrame> Frames, bool Unrecognised)>
    {
        public bool Equals((IReadOnlyList<StackFrame> Frames, bool Unrecognised) x, (IReadOnlyList<StackFrame> Frames, bool Unrecognised) y) =>
            ReferenceEquals(x.Frames, y.Frames) && x.Unrecognised == y.Unrecognised;

        public int GetHashCode((IReadOnlyList<StackFrame> Frames, bool Unrecognised) obj) =>
            HashCode.Combine(System.Runtime.CompilerServices.RuntimeHelpers.GetHashCode(obj.Frames), obj.Unrecognised);
    }
}
