using Tplab.Blocking;
using Tplab.Diagnose.Capture;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose;

/// <summary>An application method pool threads were found running (not waiting) in, by CPU samples.</summary>
/// <param name="Method">The innermost application method near the top of the stack.</param>
/// <param name="Threads">Pool threads busy in it on average over the capture.</param>
/// <param name="Share">Its fraction (0–1) of all pool-thread time spent running application code.</param>
public sealed record HotMethod(UserMethod Method, double Threads, double Share);

/// <summary>
/// Pool threads that run rather than wait: Managed samples (the thread was executing managed code) on pool work items,
/// attributed to the application method at or near the top of the stack. A different illness from blocking:
/// the pool is short of CPU, not of threads.
/// </summary>
public sealed class CpuProfile(LibraryCode library)
{
    /// <summary>Library frames allowed above the application frame (LINQ, string, hashing called from it): deeper means framework work.</summary>
    private const int TopFrames = 8;

    private readonly Dictionary<string, (UserMethod Method, double Ms)> _methods = [];
    private double _userMs;

    /// <summary>Adds one Managed sample standing for <paramref name="ms"/> of its thread's time.</summary>
    public void Add(IReadOnlyList<StackFrame> frames, double ms)
    {
        if (StackClassifier.RoleOf(frames) != ThreadRole.PoolWorkItem)
        {
            return;
        }
        for (var i = 0; i < Math.Min(TopFrames, frames.Count); i++)
        {
            if (!library.IsLibrary(frames[i]))
            {
                var method = UserMethod.From(frames[i]);
                var known = _methods.GetValueOrDefault(method.FullName, (method, 0));
                _methods[method.FullName] = (known.Item1, known.Item2 + ms);
                _userMs += ms;
                return;
            }
        }
    }

    /// <summary>Pool threads running application code on average over <paramref name="captureMs"/>, and the hottest methods.</summary>
    public (double BusyThreads, IReadOnlyList<HotMethod> Hot) Complete(double captureMs, int top = 5)
    {
        var ms = Math.Max(captureMs, 1);
        var hot = _methods.Values
            .OrderByDescending(m => m.Ms)
            .Take(top)
            .Select(m => new HotMethod(m.Method, m.Ms / ms, _userMs > 0 ? m.Ms / _userMs : 0))
            .ToList();
        return (_userMs / ms, hot);
    }
}
