using System.Diagnostics;
using System.Globalization;

namespace Tplab.Processes;

/// <summary>
/// Kills one process when tplab ends, even by kill -9, for programs that do not watch their stdin. A small shell
/// reads a pipe tplab holds open; the kernel closes it when tplab dies, and the shell then kills the process —
/// after checking, by the start time in /proc/PID/stat, that the pid still names the same process. SIGKILL also
/// ends a runtime still suspended at start-up (DOTNET_DiagnosticPorts=…,suspend), which no signal handler would.
/// </summary>
internal sealed class Watchdog : IDisposable
{
    // $1 = pid. Ignores Ctrl+C's SIGINT (sent to the whole terminal group) and SIGTERM/SIGHUP: only end-of-file on
    // stdin, or tplab's SIGKILL when the child ended first, ends it. Field 22 of /proc/PID/stat is the start time;
    // after the ") " that closes the command name, it is the 20th.
    private const string Script = """
        trap '' INT TERM HUP
        pid="$1"
        born() { s=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1; s=${s##*') '}; set -- $s; echo "${20}"; }
        start=$(born) || exit 0
        cat >/dev/null
        [ "$(born)" = "$start" ] && kill -KILL "$pid" 2>/dev/null
        exit 0
        """;

    private readonly Process _shell;
    private int _disposed;

    private Watchdog(Process shell) => _shell = shell;

    /// <summary>The watchdog shell's pid.</summary>
    public int Id => _shell.Id;

    /// <summary>Starts a watchdog for <paramref name="processId"/>.</summary>
    public static Watchdog Start(int processId)
    {
        var info = new ProcessStartInfo("/bin/sh")
        {
            ArgumentList = { "-c", Script, "tplab-watchdog", processId.ToString(CultureInfo.InvariantCulture) },
            RedirectStandardInput = true,
            UseShellExecute = false,
        };
        return new Watchdog(Process.Start(info)!);
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
