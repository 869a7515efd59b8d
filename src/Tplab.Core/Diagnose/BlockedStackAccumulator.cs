using Tplab.Blocking;
using Tplab.Diagnose.Capture;
using Tplab.Diagnose.Chains;
using Tplab.Diagnose.Requests;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose;

/// <summary>
/// One group of <see cref="BlockedStackGrouper"/> while observations come in: the pool threads it held and for how long,
/// its stacks and the endpoints of their requests (each weighted by time held). <see cref="Clone"/> lets the grouper
/// complete on copies, so completing twice gives the same answer.
/// </summary>
internal sealed class BlockedStackAccumulator
{
    private readonly HashSet<int> _threads = [];
    private readonly Dictionary<BlockedStack, double> _stacks = new(ReferenceEqualityComparer.Instance);
    private readonly Dictionary<Endpoint, double> _endpoints = [];
    private readonly Dictionary<string, double> _unlinked = new(StringComparer.Ordinal);
    private double _heldMs;

    /// <summary>No application method on its stacks and no endpoint from the events.</summary>
    public bool IsAnonymous => _endpoints.Count == 0 && _stacks.Keys.All(s => s.User is null);

    /// <summary>The place of the stack that held threads longest.</summary>
    public CodePlace Place => _stacks.MaxBy(s => s.Value).Key.Place;

    /// <summary>Its stacks have an application frame (the group is keyed by it).</summary>
    public bool HasUser => _stacks.Keys.Any(s => s.User is not null);

    /// <summary>The endpoint that held its threads longest, or null.</summary>
    public Endpoint? TopEndpoint => _endpoints.Count > 0 ? _endpoints.MaxBy(e => e.Value).Key : null;

    /// <summary>Pool-thread time held.</summary>
    public double HeldMs => _heldMs;

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

    /// <summary>A copy that the grouper's completion may change without changing this one.</summary>
    public BlockedStackAccumulator Clone()
    {
        var copy = new BlockedStackAccumulator();
        copy.Absorb(this);
        foreach (var (compiled, ms) in _unlinked)
        {
            copy._unlinked[compiled] = ms;
        }
        return copy;
    }

    public void Absorb(BlockedStackAccumulator other)
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

    /// <summary>
    /// The stack that held threads longest stands for the group, and its context shapes the advice (one with an
    /// application frame, when an anonymous group was merged in); attributed with the group's top endpoint.
    /// </summary>
    public (BlockedStack Sample, Attribution Attribution) Attributed(Func<BlockedStack, Endpoint?, Attribution> attribute)
    {
        var sample = (_stacks.Any(s => s.Key.User is not null) ? _stacks.Where(s => s.Key.User is not null) : _stacks).MaxBy(s => s.Value).Key;
        return (sample, attribute(sample, TopEndpoint));
    }

    /// <summary>What the group will be reported as: the call as written, on what, and by which method (or endpoint).</summary>
    public static string NameOf(BlockedStack sample, Attribution attribution) =>
        $"{attribution.Call.Name}|{attribution.Call.On}|{attribution.User?.FullName ?? attribution.Endpoint?.ToString() ?? sample.Boundary?.FullName}";

    public BlockedStackGroup ToGroup(double captureMs, double allHeldMs, int stackFrames, BlockedStack sample, Attribution a)
    {
        var endpoint = a.Endpoint;
        var root = a.Chain.Count > 0 ? a.Chain[0] : null;
        var advised = sample with { Call = a.Call, Place = a.Place, Context = a.Context };
        return new BlockedStackGroup(
            a.Call,
            a.User,
            a.Context,
            _heldMs / captureMs,
            _threads.Count,
            allHeldMs > 0 ? _heldMs / allHeldMs : 0,
            TimeSpan.FromMilliseconds(_heldMs),
            StackTrimmer.Trim(sample, stackFrames, f => FrameNames.Of(f, endpoint, root)),
            advised.Advice(a.User, root?.Method))
        {
            Endpoint = endpoint,
            OtherEndpoints = Math.Max(0, _endpoints.Count - (endpoint is not null && _endpoints.ContainsKey(endpoint) ? 1 : 0)),
            Chain = a.Chain,
            Place = a.Place,
            Service = a.Service,
            FrameworkLock = sample.FrameworkLock && a.Call.Kind == BlockingKind.Lock,
        };
    }
}
