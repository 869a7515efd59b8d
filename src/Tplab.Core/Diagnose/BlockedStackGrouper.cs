using Tplab.Diagnose.Capture;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose;

/// <summary>What the stacks of a capture say overall, beside the culprits.</summary>
/// <param name="PoolThreadsSeen">Different thread-pool workers in the samples (idle or busy).</param>
/// <param name="BlockedThreads">Pool threads held by a catalogue call, on average over the capture (all groups, reported or not).</param>
/// <param name="Observations">Blocked observations kept (External samples and wait events on pool threads).</param>
public sealed record StackSummary(int PoolThreadsSeen, double BlockedThreads, int Observations);

/// <summary>
/// Aggregates observations one at a time (<see cref="Add"/>) into groups keyed by (blocking call, user method),
/// then ranks them once (<see cref="Complete"/>) by pool threads held.
/// </summary>
public sealed class BlockedStackGrouper(StackClassifier classifier, int stackFrames)
{
    private readonly Dictionary<(string Call, string? User), Accumulator> _groups = [];
    private readonly Dictionary<IReadOnlyList<StackFrame>, BlockedStack?> _classified = new(ReferenceEqualityComparer.Instance);
    private readonly HashSet<int> _poolThreads = [];
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

    /// <summary>Adds one observation; ignored unless it is a pool work item held by a catalogue call.</summary>
    public void Add(ThreadObservation observation)
    {
        // Stacks are shared between events by TraceReader, so classify each distinct stack once.
        if (!_classified.TryGetValue(observation.Frames, out var blocked))
        {
            blocked = classifier.Classify(observation.Frames);
            _classified[observation.Frames] = blocked;
        }
        if (blocked is null)
        {
            return;
        }
        _poolThreads.Add(observation.ThreadId);
        _heldMs += observation.HeldMs;
        _observations++;
        var key = (blocked.Call.Name, blocked.User?.FullName);
        if (!_groups.TryGetValue(key, out var group))
        {
            _groups[key] = group = new Accumulator();
        }
        group.Add(observation, blocked);
    }

    /// <summary>The groups holding at least <paramref name="minimumThreads"/> pool threads on average, most threads first, and the summary.</summary>
    public (IReadOnlyList<BlockedStackGroup> Groups, StackSummary Summary) Complete(TimeSpan captured, double minimumThreads)
    {
        var captureMs = Math.Max(captured.TotalMilliseconds, 1);
        var groups = _groups.Values
            .Select(g => g.ToGroup(captureMs, _heldMs, stackFrames))
            .Where(g => g.Threads >= minimumThreads && g.Threads > 0)
            .OrderByDescending(g => g.Threads)
            .ThenBy(g => g.UserFrame?.FullName, StringComparer.Ordinal)
            .ToList();
        return (groups, new StackSummary(_poolThreads.Count, _heldMs / captureMs, _observations));
    }

    private sealed class Accumulator
    {
        private readonly HashSet<int> _threads = [];
        private readonly Dictionary<BlockedStack, double> _stacks = new(ReferenceEqualityComparer.Instance);
        private double _heldMs;

        public void Add(ThreadObservation observation, BlockedStack stack)
        {
            _threads.Add(observation.ThreadId);
            _heldMs += observation.HeldMs;
            _stacks[stack] = _stacks.GetValueOrDefault(stack) + observation.HeldMs;
        }

        public BlockedStackGroup ToGroup(double captureMs, double allHeldMs, int stackFrames)
        {
            // The stack that held threads longest stands for the group, and its context shapes the advice.
            var sample = _stacks.MaxBy(s => s.Value).Key;
            return new BlockedStackGroup(
                sample.Call,
                sample.User,
                sample.Context,
                _heldMs / captureMs,
                _threads.Count,
                allHeldMs > 0 ? _heldMs / allHeldMs : 0,
                TimeSpan.FromMilliseconds(_heldMs),
                StackTrimmer.Trim(sample, stackFrames),
                BlockingAdvice.For(sample));
        }
    }
}
