using System.Collections.Concurrent;
using System.Diagnostics;
using Tplab.Common;

namespace Tplab.Processes;

/// <summary>
/// A child process that cannot outlive tplab: its stdin is a pipe tplab holds open, and every child
/// tplab starts ends when that pipe closes — which the kernel does when tplab exits, even on kill -9.
/// Output lines are kept (the last few, for error messages) and can be awaited.
/// </summary>
public sealed class ChildProcess : IAsyncDisposable
{
    private const int KeptLines = 40;
    private readonly Process _process;
    private readonly ConcurrentQueue<string> _recent = new();
    private readonly List<(Func<string, bool> Match, TaskCompletionSource<string> Done)> _waiters = [];
    private readonly Lock _gate = new();
    private readonly TaskCompletionSource _exited = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly string _name;

    private ChildProcess(Process process, string name)
    {
        _process = process;
        _name = name;
    }

    /// <summary>Process id of the child.</summary>
    public int Id => _process.Id;

    /// <summary>Completes when the child has exited.</summary>
    public Task Exited => _exited.Task;

    /// <summary>Whether the child has exited.</summary>
    public bool HasExited => _process.HasExited;

    /// <summary>Raised for every line the child prints (stdout and stderr).</summary>
    public event Action<string>? LineReceived;

    /// <summary>The last lines the child printed, oldest first.</summary>
    public IReadOnlyList<string> RecentOutput => [.. _recent];

    /// <summary>Starts <paramref name="info"/> with its standard streams redirected.</summary>
    public static ChildProcess Start(ProcessStartInfo info, string name)
    {
        info.RedirectStandardInput = true;
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        info.UseShellExecute = false;
        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        var child = new ChildProcess(process, name);
        process.OutputDataReceived += (_, e) => child.OnLine(e.Data);
        process.ErrorDataReceived += (_, e) => child.OnLine(e.Data);
        process.Exited += (_, _) => child.OnExited();
        try
        {
            process.Start();
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            throw new TplabException(ExitCodes.Environment, $"could not start {name} ({info.FileName}): {e.Message}", e);
        }
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return child;
    }

    /// <summary>Waits for the first line that matches; fails with the child's last output if it exits or times out first.</summary>
    public async Task<string> WaitForLineAsync(Func<string, bool> match, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        var done = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_gate)
        {
            foreach (var line in _recent)
            {
                if (match(line))
                {
                    return line;
                }
            }
            _waiters.Add((match, done));
        }
        using var timer = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timer.CancelAfter(timeout);
        var finished = await Task.WhenAny(done.Task, _exited.Task, Task.Delay(Timeout.Infinite, timer.Token)).ConfigureAwait(false);
        if (finished == done.Task)
        {
            return await done.Task.ConfigureAwait(false);
        }
        cancellationToken.ThrowIfCancellationRequested();
        var why = finished == _exited.Task ? $"exited with code {SafeExitCode()}" : $"was not ready after {timeout.TotalSeconds:0} s";
        throw new TplabException(ExitCodes.Environment, $"{_name} {why}: {LastLines()}");
    }

    /// <summary>The child's last output, on one line, for error messages.</summary>
    public string LastLines(int count = 3)
    {
        var lines = RecentOutput.Where(l => !string.IsNullOrWhiteSpace(l)).TakeLast(count).ToArray();
        return lines.Length == 0 ? "(no output)" : string.Join(" | ", lines);
    }

    /// <summary>Asks the child to end (closes its stdin), then kills it if it has not ended in <paramref name="grace"/>.</summary>
    public async Task StopAsync(TimeSpan grace)
    {
        if (_process.HasExited)
        {
            return;
        }
        try
        {
            _process.StandardInput.Close();
        }
        catch (IOException)
        {
        }
        using var cts = new CancellationTokenSource(grace);
        try
        {
            await _process.WaitForExitAsync(cts.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            Kill();
            await _process.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
        }
    }

    /// <summary>Kills the child and its descendants at once.</summary>
    public void Kill()
    {
        try
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
            }
        }
        catch (InvalidOperationException)
        {
        }
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync(TimeSpan.FromSeconds(10)).ConfigureAwait(false);
        _process.Dispose();
    }

    private int? SafeExitCode()
    {
        try
        {
            return _process.HasExited ? _process.ExitCode : null;
        }
        catch (InvalidOperationException)
        {
            return null;
        }
    }

    private void OnLine(string? line)
    {
        if (line is null)
        {
            return;
        }
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
        LineReceived?.Invoke(line);
    }

    private void OnExited()
    {
        // Let the last output lines arrive before anyone reads RecentOutput.
        _process.WaitForExit();
        _exited.TrySetResult();
    }
}
