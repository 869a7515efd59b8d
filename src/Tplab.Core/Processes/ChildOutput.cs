using System.Collections.Concurrent;

namespace Tplab.Processes;

/// <summary>
/// A child's output as tplab uses it: the last lines kept (for error messages) and waits for a line that matches
/// (a target's "listening on ..."). Lines arrive on the process's reader threads; waits are completed outside the lock.
/// </summary>
internal sealed class ChildOutput
{
    private const int KeptLines = 40;
    private readonly ConcurrentQueue<string> _recent = new();
    private readonly List<(Func<string, bool> Match, TaskCompletionSource<string> Done)> _waiters = [];
    private readonly Lock _gate = new();

    /// <summary>The last lines, oldest first.</summary>
    public IReadOnlyList<string> Recent => [.. _recent];

    /// <summary>Keeps <paramref name="line"/> and completes the waits it matches.</summary>
    public void Add(string line)
    {
        List<TaskCompletionSource<string>>? matched = null;
        lock (_gate)
        {
            _recent.Enqueue(line);
            while (_recent.Count > KeptLines && _recent.TryDequeue(out _))
            {
            }
            for (var i = _waiters.Count - 1; i >= 0; i--)
            {
                if (_waiters[i].Match(line))
                {
                    (matched ??= []).Add(_waiters[i].Done);
                    _waiters.RemoveAt(i);
                }
            }
        }
        matched?.ForEach(d => d.TrySetResult(line));
    }

    /// <summary>The first kept line that matches, at once; else the first line that will.</summary>
    public Task<string> WaitFor(Func<string, bool> match)
    {
        ArgumentNullException.ThrowIfNull(match);
        lock (_gate)
        {
            foreach (var line in _recent)
            {
                if (match(line))
                {
                    return Task.FromResult(line);
                }
            }
            var done = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
            _waiters.Add((match, done));
            return done.Task;
        }
    }

    /// <summary>
    /// The last output, on one line, for error messages: stack frames of a crash are left out, the exception's own line
    /// is kept (a user reads "address already in use", not "at TargetHost.RunAsync"), and so are lines
    /// <paramref name="isOwnLine"/> says are tplab's own wrapper's.
    /// </summary>
    public string LastLines(int count, Func<string, bool>? isOwnLine = null)
    {
        var lines = Recent.Where(l => !string.IsNullOrWhiteSpace(l) && !IsStackFrame(l) && isOwnLine?.Invoke(l) != true).TakeLast(count).ToArray();
        return lines.Length == 0 ? "(no output)" : string.Join(" | ", lines);
    }

    private static bool IsStackFrame(string line)
    {
        var t = line.TrimStart();
        return (t.StartsWith("at ", StringComparison.Ordinal) && line.Length > t.Length)
            || t.StartsWith("--- End of ", StringComparison.Ordinal);
    }
}
