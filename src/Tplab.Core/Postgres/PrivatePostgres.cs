using System.Diagnostics;
using System.Globalization;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Postgres;

/// <summary>
/// A throwaway PostgreSQL server in a temporary folder, reachable only through a Unix socket in that
/// folder (no TCP port, so no clash with other servers). A small shell guardian owns it, in a session of its own: a
/// signal to tplab's whole group reaches neither. Two mechanisms end the server, so that killing any one process
/// cannot leave it running:
/// <list type="bullet">
/// <item>when tplab ends, even by kill -9 of its whole group, the guardian's stdin closes, and it stops the server and
/// deletes the folder;</item>
/// <item>the guardian starts the postmaster itself (not through <c>pg_ctl start</c>, whose postmaster is reparented to
/// init at once), under util-linux's <c>setpriv --pdeathsig KILL</c>: when the guardian dies, even by kill -9 and
/// whether tplab is alive or not, the kernel kills the postmaster, and PostgreSQL's own postmaster-death watch ends its
/// backends. initdb and pg_ctl stop get the same signal.</item>
/// </list>
/// A folder left by a guardian killed before it could delete it is deleted by the next start (<see cref="LeftFolders"/>).
/// </summary>
public sealed class PrivatePostgres : IAsyncDisposable
{
    /// <summary>max_connections of the private server: above the target's pool (500), so the pool is the only cap.</summary>
    public const int MaxConnections = 600;

    /// <summary>The prefix of every private server's folder in the temp folder.</summary>
    public const string FolderPrefix = "tplab-pg-";

    /// <summary>The file the guardian keeps locked (flock) while it, or any server process, lives (named in the script too).</summary>
    internal const string LockFile = "guardian.lock";

    // $1 folder, $2 binaries, $3 port, $4 "root" when root (PostgreSQL refuses to run as root), $5 seconds per stop
    // step, $6 setpriv ("" when missing: then no parent-death signal, and runuser for root).
    // The guardian ignores SIGINT and SIGPIPE (its reader may be gone: it must still reach its cleanup) and cleans up
    // once tplab closes its stdin, or on SIGTERM/SIGHUP. Descriptor 8 holds the folder's lock (LockFile), inherited by
    // every process started here; without flock there is no lock file, and a folder without one is never swept. The
    // postmaster is the guardian's own child; it is ready when postmaster.pid's eighth line says so (what pg_ctl -w
    // waits for). A fast stop that times out (a stuck backend) is followed by an immediate one, then SIGKILL, so the
    // server never outlives the folder it runs in. The cleanup deletes the lock file last: a guardian killed in the
    // middle of it leaves a folder the next start can still sweep (one without a lock file is never touched).
    private const string GuardianScript = """
        dir="$1"; bin="$2"; port="$3"; stop="$5"; sp="$6"; as=""; die=""
        trap '' INT PIPE
        if command -v flock >/dev/null; then
          exec 8>"$dir/guardian.lock"
          flock -n 8 || { exec 8>&-; rm -f "$dir/guardian.lock"; }
        fi
        if [ "$4" = root ]; then
          chown postgres: "$dir"
          if [ -n "$sp" ]; then as="$sp --reuid=postgres --regid=postgres --init-groups"; else as="runuser -u postgres"; fi
        fi
        if [ -n "$sp" ]; then die="${as:-$sp} --pdeathsig KILL --"; elif [ -n "$as" ]; then die="$as --"; fi
        pm=""
        cleanup() {
          if [ -n "$pm" ]; then
            $die "$bin/pg_ctl" stop -D "$dir/data" -m fast -w -t "$stop" >/dev/null 2>&1 ||
              $die "$bin/pg_ctl" stop -D "$dir/data" -m immediate -w -t "$stop" >/dev/null 2>&1 ||
              kill -KILL "$pm" 2>/dev/null
          fi
          rm -rf "$dir/data" "$dir/initdb.log" "$dir/server.log"; rm -rf "$dir"; exit 0
        }
        trap cleanup TERM HUP
        if ! $die "$bin/initdb" -D "$dir/data" -U tplab -A trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1; then
          echo "initdb failed: $(tail -n 2 "$dir/initdb.log" | tr '\n' ' ')"; cleanup
        fi
        $die "$bin/postgres" -D "$dir/data" -k "$dir/data" -p "$port" -c listen_addresses= -c max_connections=600 \
          -c fsync=off -c synchronous_commit=off -c full_page_writes=off </dev/null >"$dir/server.log" 2>&1 &
        pm=$!
        i=0
        until [ "$(sed -n 8p "$dir/data/postmaster.pid" 2>/dev/null)" = "ready   " ]; do
          if ! kill -0 "$pm" 2>/dev/null || [ $i -ge 600 ]; then
            echo "postgres did not start: $(tail -n 2 "$dir/server.log" | tr '\n' ' ')"; cleanup
          fi
          sleep 0.1; i=$((i+1))
        done
        echo "tplab-pg ready"
        cat >/dev/null
        cleanup
        """;

    private readonly ChildProcess _guardian;
    private readonly TimeSpan _stopTimeout;

    private PrivatePostgres(ChildProcess guardian, string folder, int port, TimeSpan stopTimeout)
    {
        _guardian = guardian;
        _stopTimeout = stopTimeout;
        Folder = folder;
        ConnectionString = $"Host={Path.Combine(folder, "data")};Port={port.ToString(CultureInfo.InvariantCulture)};Username=tplab;Database=postgres";
    }

    /// <summary>The temporary folder; gone once the server has stopped.</summary>
    public string Folder { get; }

    /// <summary>Npgsql connection string (Unix socket).</summary>
    public string ConnectionString { get; }

    /// <summary>The server's process id (postmaster.pid's first line), or null when it has none.</summary>
    public int? ServerProcessId => ReadPid(Path.Combine(Folder, "data", "postmaster.pid"));

    /// <summary>Why the server is gone ("the private PostgreSQL (pid N) exited"); null while it runs.</summary>
    public string? Lost => ServerProcessId is int pid && ProcessFiles.IsAlive(pid) && !_guardian.HasExited
        ? null
        : $"the private PostgreSQL{(ServerProcessId is int p ? $" (pid {p.ToString(CultureInfo.InvariantCulture)})" : "")} is no longer running";

    /// <summary>Starts a private server; throws <see cref="TplabException"/> with one line when it cannot.</summary>
    public static async Task<PrivatePostgres> StartAsync(PrivatePostgresOptions? options = null, CancellationToken cancellationToken = default)
    {
        options ??= new PrivatePostgresOptions();
        var stop = options.StopTimeout;
        var bin = options.Binaries ?? PostgresBinaries.Find() ?? throw new TplabException(ExitCodes.Environment, PostgresBinaries.HowToEnable);
        var root = Environment.IsPrivilegedProcess;
        if (root && OwnSession.Setpriv is null && !File.Exists("/usr/sbin/runuser") && !File.Exists("/sbin/runuser"))
        {
            throw new TplabException(ExitCodes.Environment, "PostgreSQL refuses to run as root and neither setpriv nor runuser was found to run it as the postgres user");
        }
        LeftFolders.Sweep(Path.GetTempPath(), TimeSpan.FromMinutes(1));
        var folder = Path.Combine(Path.GetTempPath(), FolderPrefix + Guid.NewGuid().ToString("N")[..12]);
        Directory.CreateDirectory(folder);
        var port = Random.Shared.Next(20000, 60000);
        var info = new ProcessStartInfo("/bin/sh")
        {
            ArgumentList =
            {
                "-c", GuardianScript, "tplab-pg", folder, bin, port.ToString(CultureInfo.InvariantCulture), root ? "root" : "",
                Math.Max(1, (int)Math.Ceiling(stop.TotalSeconds)).ToString(CultureInfo.InvariantCulture), OwnSession.Setpriv ?? "",
            },
        };
        var guardian = ChildProcess.Start(info, "the private PostgreSQL", WhenTplabEnds.CleansUp);
        try
        {
            await guardian.WaitForLineAsync(
                l => l == "tplab-pg ready",
                options.StartTimeout,
                cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            await StopAsync(guardian, folder, stop).ConfigureAwait(false);
            throw;
        }
        return new PrivatePostgres(guardian, folder, port, stop);
    }

    /// <summary>Stops the server and deletes its folder.</summary>
    public async ValueTask DisposeAsync() => await StopAsync(_guardian, Folder, _stopTimeout).ConfigureAwait(false);

    /// <summary>How long the owner waits for the guardian: both stop steps and the folder's removal.</summary>
    public static TimeSpan OwnerWait(TimeSpan stopTimeout) => stopTimeout * 3;

    // The owner waits as long as the guardian's stop may take. Only if the guardian is stuck beyond that does the
    // owner kill it, and then it ends the server itself: the guardian's death alone would leave it running.
    private static async Task StopAsync(ChildProcess guardian, string folder, TimeSpan stop)
    {
        await guardian.DisposeAsync(OwnerWait(stop)).ConfigureAwait(false);
        if (!Directory.Exists(folder))
        {
            return;
        }
        KillServer(Path.Combine(folder, "data", "postmaster.pid"));
        try
        {
            LeftFolders.DeleteLockLast(folder);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Left for the temp cleaner; the server is gone, which is what matters.
        }
    }

    // postmaster.pid's first line is the server's pid; SIGKILL of the postmaster ends its backends too.
    private static void KillServer(string pidFile)
    {
        try
        {
            if (ReadPid(pidFile) is int pid)
            {
                using var server = Process.GetProcessById(pid);
                server.Kill();
            }
        }
        catch (Exception e) when (e is IOException or ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            // Already gone.
        }
    }

    private static int? ReadPid(string pidFile)
    {
        try
        {
            return File.Exists(pidFile) && int.TryParse(File.ReadLines(pidFile).FirstOrDefault(), NumberStyles.Integer, CultureInfo.InvariantCulture, out var pid) && pid > 0 ? pid : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}

/// <summary>How to start and stop a <see cref="PrivatePostgres"/>; the defaults suit every use.</summary>
public sealed record PrivatePostgresOptions
{
    /// <summary>The folder with initdb, pg_ctl and postgres; null finds the installed ones (<see cref="PostgresBinaries.Find"/>).</summary>
    public string? Binaries { get; init; }

    /// <summary>How long initdb and the server's start may take. Default 60 s.</summary>
    public TimeSpan StartTimeout { get; init; } = TimeSpan.FromSeconds(60);

    /// <summary>
    /// How long each of the guardian's stop steps may take: a fast stop, then, if it timed out, an immediate one.
    /// Default 20 s; the owner waits three times this (<see cref="PrivatePostgres.OwnerWait"/>) before it steps in.
    /// </summary>
    public TimeSpan StopTimeout { get; init; } = TimeSpan.FromSeconds(20);
}
