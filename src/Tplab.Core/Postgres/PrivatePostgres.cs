using System.Diagnostics;
using System.Globalization;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Postgres;

/// <summary>
/// A throwaway PostgreSQL server in a temporary folder, reachable only through a Unix socket in that
/// folder (no TCP port, so no clash with other servers). A small shell guardian owns it: when tplab ends,
/// even by kill -9, the guardian's stdin closes, and it stops the server and deletes the folder.
/// </summary>
public sealed class PrivatePostgres : IAsyncDisposable
{
    /// <summary>max_connections of the private server: above the target's pool (500), so the pool is the only cap.</summary>
    public const int MaxConnections = 600;

    // $1 folder, $2 binaries, $3 port, $4 "runuser" when root (PostgreSQL refuses to run as root).
    // pg_ctl starts the server in its own session, so Ctrl+C in tplab's terminal does not reach it; the guardian
    // ignores SIGINT too and cleans up once tplab closes its stdin, or on SIGTERM/SIGHUP.
    private const string GuardianScript = """
        dir="$1"; bin="$2"; port="$3"; as=""
        if [ "$4" = runuser ]; then chown postgres: "$dir"; as="runuser -u postgres --"; fi
        started=""
        cleanup() {
          [ -n "$started" ] && $as "$bin/pg_ctl" stop -D "$dir/data" -m fast -w -t 20 >/dev/null 2>&1
          rm -rf "$dir"; exit 0
        }
        trap '' INT
        trap cleanup TERM HUP
        if ! $as "$bin/initdb" -D "$dir/data" -U tplab -A trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1; then
          echo "initdb failed: $(tail -n 2 "$dir/initdb.log" | tr '\n' ' ')"; cleanup
        fi
        started=yes
        if ! $as "$bin/pg_ctl" start -D "$dir/data" -w -t 60 -l "$dir/data/server.log" \
            -o "-k $dir/data -p $port -c listen_addresses= -c max_connections=600 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" >/dev/null 2>&1; then
          echo "postgres did not start: $(tail -n 2 "$dir/data/server.log" | tr '\n' ' ')"; cleanup
        fi
        echo "tplab-pg ready"
        cat >/dev/null
        cleanup
        """;

    private readonly ChildProcess _guardian;

    private PrivatePostgres(ChildProcess guardian, string folder, int port)
    {
        _guardian = guardian;
        Folder = folder;
        ConnectionString = $"Host={Path.Combine(folder, "data")};Port={port.ToString(CultureInfo.InvariantCulture)};Username=tplab;Database=postgres";
    }

    /// <summary>The temporary folder; gone once the server has stopped.</summary>
    public string Folder { get; }

    /// <summary>Npgsql connection string (Unix socket).</summary>
    public string ConnectionString { get; }

    /// <summary>Process id of the guardian shell.</summary>
    public int GuardianProcessId => _guardian.Id;

    /// <summary>Starts a private server; throws <see cref="TplabException"/> with one line when it cannot.</summary>
    public static async Task<PrivatePostgres> StartAsync(TimeSpan? timeout = null, CancellationToken cancellationToken = default)
    {
        var bin = PostgresBinaries.Find() ?? throw new TplabException(ExitCodes.Environment, PostgresBinaries.HowToEnable);
        var root = Environment.IsPrivilegedProcess;
        if (root && !File.Exists("/usr/sbin/runuser") && !File.Exists("/sbin/runuser"))
        {
            throw new TplabException(ExitCodes.Environment, "PostgreSQL refuses to run as root and runuser was not found to run it as the postgres user");
        }
        var folder = Path.Combine(Path.GetTempPath(), "tplab-pg-" + Guid.NewGuid().ToString("N")[..12]);
        Directory.CreateDirectory(folder);
        var port = Random.Shared.Next(20000, 60000);
        var info = new ProcessStartInfo("/bin/sh")
        {
            ArgumentList = { "-c", GuardianScript, "tplab-pg", folder, bin, port.ToString(CultureInfo.InvariantCulture), root ? "runuser" : "" },
        };
        var guardian = ChildProcess.Start(info, "the private PostgreSQL");
        try
        {
            await guardian.WaitForLineAsync(
                l => l == "tplab-pg ready",
                timeout ?? TimeSpan.FromSeconds(60),
                cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            await guardian.DisposeAsync().ConfigureAwait(false);
            throw;
        }
        return new PrivatePostgres(guardian, folder, port);
    }

    /// <summary>Stops the server and deletes its folder.</summary>
    public async ValueTask DisposeAsync() => await _guardian.DisposeAsync().ConfigureAwait(false);
}
