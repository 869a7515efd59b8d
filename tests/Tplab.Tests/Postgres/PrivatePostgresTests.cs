using System.Diagnostics;
using Npgsql;
using Tplab.Postgres;
using Tplab.Tests.Support;

namespace Tplab.Tests.Postgres;

/// <summary>The private, throwaway PostgreSQL: real server binaries, gone when its owner ends.</summary>
[Collection(TestCollections.Diagnose)]
public sealed class PrivatePostgresTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-pgtest-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [PostgresFact]
    public async Task StartAsync_ServesQueries_AndDisposeRemovesEverything()
    {
        var pg = await PrivatePostgres.StartAsync();
        var folder = pg.Folder;
        await using (var source = NpgsqlDataSource.Create(pg.ConnectionString))
        await using (var command = source.CreateCommand("SELECT pg_sleep(0.2), current_setting('max_connections')"))
        await using (var reader = await command.ExecuteReaderAsync())
        {
            Assert.True(await reader.ReadAsync());
            Assert.Equal(PrivatePostgres.MaxConnections.ToString(System.Globalization.CultureInfo.InvariantCulture), reader.GetString(1));
        }
        Assert.NotEmpty(ProcessTable.WithCommandLine(folder));

        await pg.DisposeAsync();

        Assert.False(Directory.Exists(folder));
        Assert.Empty(ProcessTable.WithCommandLine(folder));
    }

    [PostgresFact]
    public async Task OwnerKilled_ServerAndFolderAreGone()
    {
        await using var serve = TplabCli.Start("serve", "--port", "0");
        var ready = await serve.WaitForLineAsync(l => l.StartsWith("tplab serve: listening", StringComparison.Ordinal), TimeSpan.FromSeconds(90));
        var folder = System.Text.RegularExpressions.Regex.Match(ready, @"\S*tplab-pg-[0-9a-f]+").Value;
        Assert.True(Directory.Exists(folder), ready);
        var targetPid = int.Parse(ready.Split("target pid ")[1].Split(',')[0], System.Globalization.CultureInfo.InvariantCulture);

        // kill -9 of the CLI alone: its children get no signal and must notice by themselves.
        Process.GetProcessById(serve.Id).Kill(entireProcessTree: false);

        Assert.True(await ProcessTable.EventuallyAsync(() => !Directory.Exists(folder) && ProcessTable.WithCommandLine(folder).Count == 0, TimeSpan.FromSeconds(30)),
            $"PostgreSQL in {folder} outlived its owner");
        Assert.True(await ProcessTable.EventuallyAsync(() => !ProcessTable.IsAlive(targetPid), TimeSpan.FromSeconds(10)), "the target outlived its owner");
    }

    [Fact]
    public void Find_SearchesTheVariableThenDebianThenPath()
    {
        var debian = Directory.CreateDirectory(Path.Combine(_folder, "usr-lib-postgresql")).FullName;
        var v15 = Binaries(Path.Combine(debian, "15", "bin"));
        var v17 = Binaries(Path.Combine(debian, "17", "bin"));
        Directory.CreateDirectory(Path.Combine(debian, "18", "bin")); // an empty newer folder: not an installation
        var onPath = Binaries(Path.Combine(_folder, "opt-bin"));

        Assert.Equal(v17, PostgresBinaries.Find(null, debian, onPath));
        Assert.Equal(v15, PostgresBinaries.Find(v15, debian, onPath));
        Assert.Equal(onPath, PostgresBinaries.Find(null, Path.Combine(_folder, "none"), "/nowhere:" + onPath));
        // missing binaries: the variable names a folder without them, or nothing is installed anywhere
        Assert.Null(PostgresBinaries.Find(Path.Combine(_folder, "nope"), debian, onPath));
        Assert.Null(PostgresBinaries.Find(null, Path.Combine(_folder, "none"), "/nowhere"));
        Assert.Contains("apt-get install postgresql", PostgresBinaries.HowToEnable, StringComparison.Ordinal);
        Assert.Contains("--pg", PostgresBinaries.HowToEnable, StringComparison.Ordinal);
    }

    // A stand-in postmaster: writes postmaster.pid as the real one does (its pid, and "ready" on the eighth line), then
    // stays until killed.
    private const string FakePostgres = """
        #!/bin/sh
        while [ $# -gt 0 ]; do case "$1" in -D) d="$2"; shift 2;; *) shift;; esac; done
        printf '%s\n' $$ "$d" 0 0 "" "" 0 "ready   " > "$d/postmaster.pid"
        exec sh -c 'while :; do sleep 1; done' fake-postmaster "$d"
        """;

    // A stand-in pg_ctl whose fast stop takes SLOW seconds ("hang": never returns, whatever -t says), so the guardian's
    // and the owner's timeouts are exercised in seconds instead of the real 20 s.
    private const string FakePgCtl = """
        #!/bin/sh
        cmd="$1"; shift
        while [ $# -gt 0 ]; do case "$1" in -D) d="$2"; shift 2;; -m) m="$2"; shift 2;; -t) t="$2"; shift 2;; -l|-o) shift 2;; *) shift;; esac; done
        slow=$(cat "$(dirname "$0")/slow")
        case "$cmd" in
          stop) pid=$(head -n 1 "$d/postmaster.pid")
                if [ "$m" = immediate ]; then [ "$slow" = hang ] && sleep 600; kill -KILL "$pid"; exit 0; fi
                [ "$slow" = hang ] && sleep 600
                if [ "$slow" -gt "$t" ]; then sleep "$t"; exit 1; fi
                sleep "$slow"; kill -KILL "$pid"; exit 0;;
        esac
        """;

    // fast stop slower than the old owner's patience relative to the guardian's budget, a fast stop that times out
    // (then the immediate one), and a guardian stuck past the owner's wait (then the owner ends the server itself)
    [PostgresUserTheory]
    [InlineData("1")]
    [InlineData("2")]
    [InlineData("hang")]
    public async Task Dispose_SlowStop_ServerAndFolderAreGone(string slow)
    {
        var bin = Binaries(Path.Combine(_folder, "fake-bin"));
        File.WriteAllText(Path.Combine(bin, "pg_ctl"), FakePgCtl.Replace("\r", "", StringComparison.Ordinal) + "\n");
        File.WriteAllText(Path.Combine(bin, "postgres"), FakePostgres.Replace("\r", "", StringComparison.Ordinal) + "\n");
        File.WriteAllText(Path.Combine(bin, "slow"), slow);
        var stop = TimeSpan.FromSeconds(1);
        var pg = await PrivatePostgres.StartAsync(new PrivatePostgresOptions { Binaries = bin, StopTimeout = stop });
        var folder = pg.Folder;
        Assert.True(await ProcessTable.EventuallyAsync(() => ProcessTable.WithCommandLine("fake-postmaster " + folder).Count == 1, TimeSpan.FromSeconds(10)));

        var clock = Stopwatch.StartNew();
        await pg.DisposeAsync();

        Assert.True(clock.Elapsed < PrivatePostgres.OwnerWait(stop) + TimeSpan.FromSeconds(5), $"dispose took {clock.Elapsed}");
        Assert.False(Directory.Exists(folder));
        Assert.True(await ProcessTable.EventuallyAsync(() => ProcessTable.WithCommandLine("fake-postmaster " + folder).Count == 0, TimeSpan.FromSeconds(3)),
            $"the server outlived a stop that took {slow}");
    }

    private static string Binaries(string dir)
    {
        Directory.CreateDirectory(dir);
        foreach (var name in new[] { "initdb", "postgres", "pg_ctl" })
        {
            var file = Path.Combine(dir, name);
            File.WriteAllText(file, name == "initdb" ? "#!/bin/sh\nmkdir -p \"$2\"\n" : "#!/bin/sh\nexit 0\n");
            if (!OperatingSystem.IsWindows())
            {
                File.SetUnixFileMode(file, (UnixFileMode)0b111_101_101);
            }
        }
        // The guardian runs them as postgres when tplab is root: every folder on the way must let it in.
        for (var d = dir; !OperatingSystem.IsWindows() && d.StartsWith(Path.GetTempPath(), StringComparison.Ordinal) && d.Length > Path.GetTempPath().Length; d = Path.GetDirectoryName(d)!)
        {
            File.SetUnixFileMode(d, (UnixFileMode)0b111_101_101);
        }
        return dir;
    }
}
