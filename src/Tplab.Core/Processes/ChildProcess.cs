using System.Diagnostics;
using Tplab.Common;

namespace Tplab.Processes;

/// <summary>
/// A child process that does not outlive tplab. It runs in a session of its own (<see cref="OwnSession"/>): a signal to
/// tplab's group or session reaches tplab alone, which stops its children itself. Its stdin is a pipe tplab holds
/// open, which the kernel closes when tplab exits, even on kill -9. tplab's own children (target, downstream) end
/// themselves on that end-of-file, and the kernel's parent-death signal ends them if they could not; guardians (the
/// user's service, PostgreSQL) clean up on it; any other program (<c>watch -- COMMAND</c>) is started with
/// <see cref="WhenTplabEnds.Kill"/>: a watchdog holding the same kind of pipe kills its group. Output lines are kept
/// (the last few, for error messages) and can be awaited.
/// </summary>
public sealed class ChildProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly ChildOutput _output = new();
    private readonly TaskCompletionSource _exited = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _reading = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly string _name;
    private Watchdog? _watchdog;
    private int? _exitCode;

    private ChildProcess(Process process, string name)
    {
        _process = process;
        _name = name;
    }

    /// <summary>Whether the child leads a session (and process group) of its own, so signals can go to its whole group.</summary>
    public bool OwnGroup { get; private set; }

    /// <summary>Process id of the child.</summary>
    public int Id => _process.Id;

    /// <summary>Completes when the child has exited.</summary>
    public Task Exited => _exited.Task;

    /// <summary>Whether the child has exited (also after <see cref="DisposeAsync"/>).</summary>
    public bool HasExited => _exitCode is not null || _exited.Task.IsCompleted || SafeHasExited();

    /// <summary>The child's exit code once it has exited; null before.</summary>
    public int? ExitCode => _exitCode ?? SafeExitCode();

    /// <summary>Raised for every line the child prints (stdout and stderr).</summary>
    public event Action<string>? LineReceived;

    // Held while a line is kept and announced, and while a follower is given the recent lines and attached: a line is
    // then either among those it was given or announced to it after, never both and never neither.
    private readonly Lock _lines = new();

    /// <summary>
    /// Calls <paramref name="onLine"/> for each of <see cref="RecentOutput"/>, then for every later line, in order: none
    /// missed in between and none twice (reading the recent lines, then attaching to <see cref="LineReceived"/>, lost
    /// a line printed between the two: a <c>--verify</c> command's only line, under load). Dispose to stop.
    /// </summary>
    public IDisposable Follow(Action<string> onLine)
    {
        ArgumentNullException.ThrowIfNull(onLine);
        lock (_lines)
        {
            foreach (var line in _output.Recent)
            {
                onLine(line);
            }
            LineReceived += onLine;
        }
        return new Unfollow(this, onLine);
    }

    private sealed class Unfollow(ChildProcess child, Action<string> onLine) : IDisposable
    {
        public void Dispose()
        {
            lock (child._lines)
            {
                child.LineReceived -= onLine;
            }
        }
    }

    /// <summary>The last lines the child printed, oldest first.</summary>
    public IReadOnlyList<string> RecentOutput => _output.Recent;

    /// <summary>Lines of tplab's own wrapper (a guardian's bookkeeping), left out of <see cref="LastLines"/>: the user acts on the program's words, not ours.</summary>
    public Func<string, bool>? IsOwnLine { get; set; }

    /// <inheritdoc cref="ExitWords.Describe"/>
    public static string DescribeExit(int? code) => ExitWords.Describe(code);

    /// <summary>
    /// Starts <paramref name="info"/> with its standard streams redirected. <paramref name="whenTplabEnds"/> says how
    /// it ends if tplab dies: by itself on its stdin's end-of-file (tplab's own programs), or killed by a watchdog.
    /// A program that cannot be started is a <see cref="TplabException"/> with <paramref name="cannotStart"/> as its exit code.
    /// </summary>
    public static ChildProcess Start(ProcessStartInfo info, string name, WhenTplabEnds whenTplabEnds = WhenTplabEnds.ChildEndsItself, int cannotStart = ExitCodes.Environment)
    {
        ArgumentNullException.ThrowIfNull(info);
        info.RedirectStandardInput = true;
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        info.UseShellExecute = false;
        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        var child = new ChildProcess(process, name);
        process.OutputDataReceived += (_, e) => child.OnLine(e.Data);
        process.ErrorDataReceived += (_, e) => child.OnLine(e.Data);
        process.Exited += (_, _) => child.OnExited();
        var program = info.FileName;
        try
        {
            // A guardian must outlive tplab to clean up after it: no parent-death signal for it.
            child.OwnGroup = OwnSession.Prepare(info, dieWithTplab: whenTplabEnds != WhenTplabEnds.CleansUp);
            OwnSession.Start(process);
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            throw new TplabException(cannotStart, $"could not start {name} ({program}): {e.Message}", e);
        }
        if (whenTplabEnds == WhenTplabEnds.Kill)
        {
            try
            {
                child._watchdog = Watchdog.Start(process.Id, child.OwnGroup);
                if (child._exited.Task.IsCompleted)
                {
                    child._watchdog.Dispose(); // it ended before the watchdog was set: OnExited could not stop it
                }
            }
            catch (System.ComponentModel.Win32Exception e)
            {
                child.Kill();
                throw new TplabException(ExitCodes.Environment, $"could not start the watchdog (/bin/sh) that ends {name} with tplab: {e.Message}", e);
            }
        }
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        child._reading.TrySetResult();
        return child;
    }

    /// <summary>Waits for the first line that matches; fails with the child's last output if it exits or times out first.</summary>
    public async Task<string> WaitForLineAsync(Func<string, bool> match, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        var done = _output.WaitFor(match);
        if (done.IsCompleted)
        {
            return await done.ConfigureAwait(false);
        }
        using var timer = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timer.CancelAfter(timeout);
        var finished = await Task.WhenAny(done, _exited.Task, Task.Delay(Timeout.Infinite, timer.Token)).ConfigureAwait(false);
        if (finished == done)
        {
            return await done.ConfigureAwait(false);
        }
        cancellationToken.ThrowIfCancellationRequested();
        var why = finished == _exited.Task ? DescribeExit(ExitCode) + " before it was ready" : $"was not ready after {timeout.TotalSeconds.ToString("0", System.Globalization.CultureInfo.InvariantCulture)} s";
        throw new TplabException(ExitCodes.Environment, $"{_name} {why}: {LastLines()}");
    }

    /// <summary>
    /// The child's last output, on one line, for error messages: stack frames of a crash are left out, the
    /// exception's own line is kept (a user reads "address already in use", not "at TargetHost.RunAsync").
    /// </summary>
    public string LastLines(int count = 3) => _output.LastLines(count, IsOwnLine);

    /// <summary>
    /// Asks the child to end (closes its stdin; a program that does not watch it also gets SIGTERM, as a service
    /// manager would ask it), then kills it if it has not ended in <paramref name="grace"/>.
    /// </summary>
    public async Task StopAsync(TimeSpan grace)
    {
        if (HasExited)
        {
            _watchdog?.Dispose();
            return;
        }
        try
        {
            _process.StandardInput.Close();
        }
        catch (IOException)
        {
        }
        if (_watchdog is not null)
        {
            Signals.Terminate(_process.Id, OwnGroup);
        }
        // Exited, not WaitForExitAsync: that one also waits for the output's end, which a child the program left behind
        // in a session of its own can hold open for as long as it lives (a --verify command's daemon hung the dispose
        // once in seven runs); Exited comes after a bounded drain.
        try
        {
            await _exited.Task.WaitAsync(grace).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            Kill();
            await _exited.Task.ConfigureAwait(false);
        }
        _watchdog?.Dispose();
    }

    /// <summary>Kills the child and its descendants at once (and its process group, when it leads one).</summary>
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
        if (OwnGroup)
        {
            // What left the tree (a daemon reparented to init) is still in the group.
            Signals.KillGroup(_process.Id);
        }
    }

    /// <summary>Stops the child as <see cref="StopAsync"/> does with a 10 s grace, then releases it.</summary>
    public async ValueTask DisposeAsync() => await DisposeAsync(TimeSpan.FromSeconds(10)).ConfigureAwait(false);

    /// <summary>Stops the child with <paramref name="grace"/> before it is killed, then releases it.</summary>
    public async ValueTask DisposeAsync(TimeSpan grace)
    {
        await StopAsync(grace).ConfigureAwait(false);
        _exitCode ??= SafeExitCode();
        _process.Dispose();
    }

    private bool SafeHasExited()
    {
        try
        {
            return _process.HasExited;
        }
        catch (InvalidOperationException)
        {
            // Disposed: it was stopped first, so it has exited.
            return true;
        }
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
        lock (_lines)
        {
            _output.Add(line);
            LineReceived?.Invoke(line);
        }
    }

    // How long the output of an exited child may take to reach its end.
    private static readonly TimeSpan OutputDrain = TimeSpan.FromSeconds(5);

    private void OnExited()
    {
        // Let the last output lines arrive before anyone reads RecentOutput, for a bounded time: something the child
        // started in a session of its own may hold the pipe open long after it exited (a --verify command that left a
        // daemon), and this runs on the thread that asked HasExited, which would then wait for that daemon.
        // (WaitForExit with a timeout does not wait for the output at all: the unbounded one, waited for with a bound.)
        // A child that exits at once can be reaped before Start began reading its output; WaitForExit then waits for
        // nothing, and the last lines would arrive after Exited (a --verify command's "exited" line did, under load).
        _reading.Task.Wait(OutputDrain);
        Task.Run(() => _process.WaitForExit()).Wait(OutputDrain);
        _exitCode = SafeExitCode();
        _watchdog?.Dispose();
        _exited.TrySetResult();
    }
}
