using System.Diagnostics;
using Tplab.Common;

namespace Tplab.Processes;

/// <summary>
/// A user's command line (which knows nothing of tplab) started so that it cannot outlive tplab. A small shell
/// guardian, in a session of its own (a signal to tplab's whole group or session does not reach it), starts the command
/// in another session and process group, then waits on tplab's pipe: when tplab ends, even by kill -9 of its whole
/// group, the kernel closes the pipe and the guardian ends the command's whole group (TERM, then KILL after 5 s). The
/// command runs under a small shell of its own, the group's leader, which gets the kernel's parent-death signal (SIGHUP,
/// util-linux's <c>setpriv --pdeathsig</c>) from the guardian: if the guardian and its watcher are killed (<c>pkill -9
/// -f tplab</c>), that shell ends the group the same way, so <c>dotnet run</c>'s app does not survive them. Ctrl+C in
/// tplab's terminal does not reach the group; tplab decides when it stops.
/// </summary>
public sealed class GuardedCommand : IAsyncDisposable
{
    /// <summary>The guardian's lines, which are tplab's bookkeeping, never shown to the user.</summary>
    private const string GuardianPrefix = "tplab-guardian: ";

    /// <summary>The guardian's line naming the group leader's pid.</summary>
    private const string StartedPrefix = "tplab-guardian: started ";

    /// <summary>The guardian's line once the command has exited on its own.</summary>
    private const string ExitedPrefix = "tplab-guardian: exited ";

    // The group's leader when setpriv is present: $1 the command line. It runs the command as its child and exits with
    // its code. SIGTERM (the guardian's polite stop, sent to the whole group) only interrupts its wait: the command
    // decides how to end. SIGHUP is its parent-death signal: the guardian is gone, so it ends the group itself (TERM,
    // then KILL after 5 s, itself included). A trapped signal is reset to its default in the command, not ignored.
    // Once a second it also checks that its parent is still the guardian (field 4 of /proc/$$/stat): when tplab runs with
    // SIGHUP ignored (under nohup, as many CI runners do), the leader inherits the ignored signal and sh may not trap it
    // (POSIX), so the parent-death signal alone left the group alive after tplab, the guardian and its watcher were
    // SIGKILLed (a clean-clone CI run under nohup).
    private const string Leader = """
        trap ':' TERM
        end() { trap "" HUP; kill -TERM 0; i=0; while kill -0 "$c" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; kill -KILL 0; }
        trap end HUP
        parent() { read -r s </proc/$$/stat; s=${s##*) }; set -- $s; echo "$2"; }
        g=$(parent)
        /bin/sh -c "$1" &
        c=$!
        while kill -0 "$c" 2>/dev/null; do
          [ "$(parent)" = "$g" ] || end
          sleep 1 &
          wait $! 2>/dev/null
        done
        wait "$c"
        exit $?
        """;

    // $1 working folder, $2 the command line, $3 setpriv when present, $4 the leader's script, $5 tplab's private folder
    // for the guardian's status. The command's stdin is /dev/null; its output is the guardian's. The group's id and the
    // exit status are written to files in $5 (whole, by rename) before the line that announces them: the output pipe
    // is the command's too, and a command printing "tplab-guardian: exited 0" must not forge its own status. Descriptor 3 keeps tplab's pipe for the watcher: a background job's stdin
    // is /dev/null in sh. The watcher must not hold the guardian's stdout: tplab reads it to its end before it sees the
    // guardian exit.
    private const string Script = """
        cd "$1" || { echo "tplab-guardian: cannot enter the working folder $1"; exit 1; }
        trap '' INT
        exec 3<&0
        if [ -n "$3" ]; then setsid "$3" --pdeathsig HUP -- /bin/sh -c "$4" command-leader "$2" </dev/null &
        else setsid /bin/sh -c "$2" </dev/null &
        fi
        pid=$!
        echo "$pid" >"$5/started.tmp" && mv "$5/started.tmp" "$5/started"
        echo "tplab-guardian: started $pid"
        (
          cat <&3 >/dev/null
          kill -TERM -"$pid" 2>/dev/null
          i=0
          while kill -0 -"$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
          kill -KILL -"$pid" 2>/dev/null
          rm -rf "$5"
        ) >/dev/null 2>&1 &
        exec 3<&-
        wait "$pid"
        code=$?
        echo "$code" >"$5/exited.tmp" && mv "$5/exited.tmp" "$5/exited"
        echo "tplab-guardian: exited $code"
        kill -KILL -"$pid" 2>/dev/null
        exit $code
        """;

    private readonly ChildProcess _guardian;
    private readonly GuardianStatus _status;

    private GuardedCommand(ChildProcess guardian, GuardianStatus status, int groupId)
    {
        _guardian = guardian;
        _status = status;
        GroupId = groupId;
    }

    /// <summary>The process group (and session) of the command: its first process's id.</summary>
    public int GroupId { get; }

    /// <summary>The guardian; its output is the command's output.</summary>
    public ChildProcess Guardian => _guardian;

    /// <summary>Whether the command has exited (the guardian then exits too).</summary>
    public bool HasExited => _status.ExitCode is not null || _guardian.HasExited;

    /// <summary>The command's exit code (128 + the signal that killed it), from the guardian's status file; else the guardian's own once it has exited; null while it runs.</summary>
    public int? ExitCode => _status.ExitCode ?? (_guardian.HasExited ? _guardian.ExitCode : null);

    /// <summary>Starts <paramref name="commandLine"/> with /bin/sh in <paramref name="workingDirectory"/>.</summary>
    public static async Task<GuardedCommand> StartAsync(
        string commandLine, string workingDirectory, IEnumerable<KeyValuePair<string, string>> environment, string name, CancellationToken cancellationToken)
    {
        if (!Directory.Exists(workingDirectory))
        {
            throw TplabException.Usage($"{name}: the working folder {workingDirectory} does not exist");
        }
        var status = new GuardianStatus();
        var info = new ProcessStartInfo("/bin/sh") { ArgumentList = { "-c", Script, "tplab-guardian", workingDirectory, commandLine, OwnSession.Setpriv ?? "", Leader, status.Folder } };
        foreach (var (key, value) in environment)
        {
            info.Environment[key] = value;
        }
        ChildProcess guardian;
        try
        {
            guardian = ChildProcess.Start(info, name, WhenTplabEnds.CleansUp);
        }
        catch
        {
            status.Dispose();
            throw;
        }
        guardian.IsOwnLine = l => l.StartsWith(GuardianPrefix, StringComparison.Ordinal);
        try
        {
            // The line wakes tplab up; the file says what it means (a line the command printed has no file behind it).
            await guardian.WaitForLineAsync(l => l.StartsWith(StartedPrefix, StringComparison.Ordinal) && status.GroupId is not null, TimeSpan.FromSeconds(10), cancellationToken).ConfigureAwait(false);
            return new GuardedCommand(guardian, status, status.GroupId!.Value);
        }
        catch
        {
            await guardian.DisposeAsync().ConfigureAwait(false);
            status.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Waits until the command has exited and returns its exit code, even when something it started still holds its
    /// output open; fails as <see cref="ChildProcess.WaitForLineAsync"/> does if the guardian itself is killed first.
    /// </summary>
    public async Task<int> WaitForExitAsync(CancellationToken cancellationToken)
    {
        try
        {
            await _guardian.WaitForLineAsync(l => l.StartsWith(ExitedPrefix, StringComparison.Ordinal) && _status.ExitCode is not null, Timeout.InfiniteTimeSpan, cancellationToken).ConfigureAwait(false);
        }
        catch (TplabException) when (!cancellationToken.IsCancellationRequested && _status.ExitCode is not null)
        {
            // The guardian wrote the command's status and then exited before its line was seen (a clean-clone run:
            // "exited with code 3 before it was ready"): the file, not the line, says how the command ended.
        }
        return _status.ExitCode!.Value;
    }

    /// <summary>How the command ended, in words ("was killed by signal 9 (SIGKILL)"); null while it runs.</summary>
    public string? Exited => !HasExited ? null : ChildProcess.DescribeExit(ExitCode);

    /// <summary>Processes of the command's group still alive (the command and whatever it started).</summary>
    public IReadOnlyList<int> Members() => [.. ProcessFiles.AllProcessIds().Where(pid => ProcessFiles.ProcessGroup(pid) == GroupId && ProcessFiles.IsAlive(pid))];

    /// <summary>Ends the command's group (TERM, KILL after 5 s) and the guardian.</summary>
    public async ValueTask DisposeAsync()
    {
        await _guardian.DisposeAsync().ConfigureAwait(false);
        _status.Dispose();
    }
}
