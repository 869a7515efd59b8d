using System.Diagnostics;
using System.Globalization;

namespace Tplab.Processes;

/// <summary>
/// Kills one process (and its process group, when it leads one) when tplab ends, even by kill -9, for programs that do
/// not watch their stdin. A small shell, in a session of its own so that a signal to tplab's group does not end it too,
/// reads a pipe tplab holds open; the kernel closes it when tplab dies, and the shell then kills the process — after
/// checking, by the start time in /proc/PID/stat, that the pid still names the same process. SIGKILL also ends a
/// runtime still suspended at start-up (DOTNET_DiagnosticPorts=…,suspend), which no signal handler would.
/// </summary>
internal sealed class Watchdog : IDisposable
{
    // $1 = pid, $2 = "group" when the process leads its own group. Ignores SIGINT, SIGTERM and SIGHUP: only end-of-file
    // on stdin, or tplab's SIGKILL when the child ended first, ends it. Field 22 of /proc/PID/stat is the start time;
    // after the ") " that closes the command name, it is the 20th. A group outlives its leader while members remain,
    // and its id is not reused meanwhile: with the leader gone, the group is still the child's.
    // Its own output goes nowhere: in a session of its own it may no longer write to tplab's terminal (EIO, seen as
    // "tplab-watchdog: echo: I/O error" on tplab's stderr), and it has nothing to tell the user.
    private const string Script = """
        exec >/dev/null 2>&1
        trap '' INT TERM HUP
        pid="$1"
        born() { s=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1; s=${s##*') '}; set -- $s; echo "${20}"; }
        start=$(born) || exit 0
        cat >/dev/null
        now=$(born)
        if [ "$now" = "$start" ]; then
          [ "$2" = group ] && kill -KILL -"$pid" 2>/dev/null
          kill -KILL "$pid" 2>/dev/null
        elif [ -z "$now" ] && [ "$2" = group ]; then
          kill -KILL -"$pid" 2>/dev/null
        fi
        exit 0
        """;

    private readonly Process _shell;
    private int _disposed;

    private Watchdog(Process shell) => _shell = shell;

    /// <summary>The watchdog shell's pid.</summary>
    public int Id => _shell.Id;

    /// <summary>Starts a watchdog for <paramref name="processId"/>; with <paramref name="group"/>, for its whole process group too.</summary>
    public static Watchdog Start(int processId, bool group = false)
    {
        var info = new ProcessStartInfo("/bin/sh")
        {
            ArgumentList = { "-c", Script, "tplab-watchdog", processId.ToString(CultureInfo.InvariantCulture), group ? "group" : "" },
            RedirectStandardInput = true,
            UseShellExecute = false,
        };
        OwnSession.Prepare(info, dieWithTplab: false);
        var shell = new Process { StartInfo = info };
        shell.Start();
        return new Watchdog(shell);
    }

    /// <summary>Stands the watchdog down without killing anything (the process ended, or tplab stopped it itself).</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }
        try
        {
            // SIGKILL, not closing the pipe: closing it is the signal to kill the process.
            _shell.Kill();
            _shell.WaitForExit(1000);
        }
        catch (Exception e) when (e is InvalidOperationException or System.ComponentModel.Win32Exception)
        {
        }
        _shell.Dispose();
    }
}
