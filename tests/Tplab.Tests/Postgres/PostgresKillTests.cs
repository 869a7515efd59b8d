using System.Globalization;
using Npgsql;
using Tplab.Postgres;
using Tplab.Processes;
using Tplab.Tests.Support;

namespace Tplab.Tests.Postgres;

/// <summary>
/// Issue 28's last orphan case: tplab <em>and</em> the private PostgreSQL's guardian each SIGKILLed by pid, in either
/// order, while initdb runs and once the server is up. Whichever dies first, no PostgreSQL process is left (initdb,
/// its bootstrap backends, the postmaster, its backends, pg_ctl): the guardian stops the server when tplab dies, and
/// the kernel kills the server when the guardian dies. A folder the killed guardian could not delete is deleted by the
/// next start's sweep. tplab is <c>tplab serve</c>, which holds a private server until it is stopped.
/// </summary>
[Collection(TestCollections.Diagnose)]
public sealed class PostgresKillTests
{
    private readonly Orphans _orphans = new();

    public static TheoryData<string, string> Stages => new()
    {
        { "initdb", "guardian" }, { "initdb", "tplab" },
        { "ready", "guardian" }, { "ready", "tplab" },
    };

    [PostgresTheory]
    [MemberData(nameof(Stages))]
    public async Task TplabAndGuardianKilledOneByOne_NoPostgresProcessLeft(string stage, string first)
    {
        await using var serve = _orphans.Start("serve", "--port", "0");
        var guardian = 0;
        Assert.True(await ProcessTable.EventuallyAsync(() => (guardian = Guardian()) != 0 || serve.HasExited, TimeSpan.FromSeconds(60)),
            "no PostgreSQL guardian started");
        Assert.False(serve.HasExited, serve.LastLines(5));
        var folder = FolderOf(guardian);
        NpgsqlConnection? client = null;
        Task? sleeping = null;
        int[] server;
        if (stage == "initdb")
        {
            var initdb = 0;
            Assert.True(await ProcessTable.EventuallyAsync(() => (initdb = MarkedProgram("/initdb")) != 0, TimeSpan.FromSeconds(60)), "initdb did not start");
            server = [initdb, .. ProcessTree.Descendants(initdb)];
        }
        else
        {
            await serve.WaitForLineAsync(l => l.StartsWith("tplab serve: listening", StringComparison.Ordinal), TimeSpan.FromSeconds(90));
            // A client's backend busy in a query, beside the server's own processes. Backends rewrite their command
            // line over their environment, so they are found as the postmaster's children, not by the marker.
            var pidFile = File.ReadAllLines(Path.Combine(folder, "data", "postmaster.pid"));
            var postmaster = int.Parse(pidFile[0], CultureInfo.InvariantCulture);
            client = new NpgsqlConnection($"Host={Path.Combine(folder, "data")};Port={pidFile[3]};Username=tplab;Database=postgres");
            await client.OpenAsync();
            sleeping = new NpgsqlCommand("SELECT pg_sleep(600)", client).ExecuteNonQueryAsync();
            Assert.True(await ProcessTable.EventuallyAsync(
                () => ProcessTree.Descendants(postmaster).Any(p => string.Join(' ', ProcessFiles.CommandLine(p)).Contains("SELECT", StringComparison.Ordinal)),
                TimeSpan.FromSeconds(30)), "no backend running the query");
            server = [postmaster, .. ProcessTree.Descendants(postmaster)];
        }

        try
        {
            // One by one, by pid (not the group): each dies without a chance to clean up.
            var order = first == "guardian" ? new[] { guardian, serve.Id } : [serve.Id, guardian];
            ProcessTree.Signal(order[0], "KILL");
            ProcessTree.Signal(order[1], "KILL");

            await _orphans.EndedWithNoneLeftAsync(serve);
            var alive = server.Where(ProcessTable.IsAlive).ToList();
            Assert.True(await ProcessTable.EventuallyAsync(() => (alive = [.. server.Where(ProcessTable.IsAlive)]).Count == 0, TimeSpan.FromSeconds(20)),
                $"PostgreSQL processes left: {string.Join("; ", alive.Select(p => $"{p} {string.Join(' ', ProcessFiles.CommandLine(p))}"))}");
        }
        finally
        {
            foreach (var pid in server.Where(ProcessTable.IsAlive))
            {
                ProcessTree.Signal(pid, "KILL");
            }
            if (sleeping is not null)
            {
                await Assert.ThrowsAnyAsync<Exception>(() => sleeping);
            }
            if (client is not null)
            {
                await client.DisposeAsync();
            }
        }
        // A folder left is swept. It keeps its lock file: the guardian's cleanup deletes that file last (it once deleted
        // the whole folder in directory order, and a guardian killed in the middle left data without a lock, never swept).
        if (Directory.Exists(folder))
        {
            // (Empty is possible too: killed between deleting the lock file and the folder.)
            Assert.True(File.Exists(Path.Combine(folder, PrivatePostgres.LockFile)) || !Directory.EnumerateFileSystemEntries(folder).Any(),
                $"the folder was left without its lock file: {string.Join(", ", Directory.EnumerateFileSystemEntries(folder).Select(Path.GetFileName))}");
            // The guardian died before its cleanup: a later start deletes the folder once no process holds its lock.
            // initdb's own bootstrap backend (not marked: it rewrites its environment) ends on its stdin's end a moment
            // after initdb, so the sweep is retried until then (once, in a clean-clone run, it still held the lock).
            Assert.True(await ProcessTable.EventuallyAsync(() =>
            {
                LeftFolders.Sweep(Path.GetTempPath(), TimeSpan.Zero);
                return !Directory.Exists(folder);
            }, TimeSpan.FromSeconds(20)), $"the sweep left the folder; its lock is held by: {string.Join("; ", Holders(Path.Combine(folder, PrivatePostgres.LockFile)))}");
        }
    }

    [PostgresFact]
    public async Task Sweep_LeavesAFolderInUse()
    {
        var pg = await PrivatePostgres.StartAsync();
        try
        {
            LeftFolders.Sweep(Path.GetTempPath(), TimeSpan.Zero);
            Assert.True(Directory.Exists(pg.Folder), "the sweep deleted a running server's folder");
        }
        finally
        {
            await pg.DisposeAsync();
        }
        Assert.False(Directory.Exists(pg.Folder));
    }

    [Fact]
    public void Sweep_DeletesAFreeFolderOnly()
    {
        var free = Directory.CreateDirectory(Path.Combine(Path.GetTempPath(), PrivatePostgres.FolderPrefix + "test-free-" + Guid.NewGuid().ToString("N")[..8])).FullName;
        var unmarked = Directory.CreateDirectory(Path.Combine(Path.GetTempPath(), PrivatePostgres.FolderPrefix + "test-unmarked-" + Guid.NewGuid().ToString("N")[..8])).FullName;
        var young = Directory.CreateDirectory(Path.Combine(Path.GetTempPath(), PrivatePostgres.FolderPrefix + "test-young-" + Guid.NewGuid().ToString("N")[..8])).FullName;
        var emptyOld = Directory.CreateDirectory(Path.Combine(Path.GetTempPath(), PrivatePostgres.FolderPrefix + "test-empty-" + Guid.NewGuid().ToString("N")[..8])).FullName;
        var unmarkedOld = Directory.CreateDirectory(Path.Combine(Path.GetTempPath(), PrivatePostgres.FolderPrefix + "test-old-" + Guid.NewGuid().ToString("N")[..8])).FullName;
        try
        {
            Directory.SetLastWriteTimeUtc(emptyOld, DateTime.UtcNow.AddHours(-1));
            File.WriteAllText(Path.Combine(unmarkedOld, "initdb.log"), "");
            Directory.SetLastWriteTimeUtc(unmarkedOld, DateTime.UtcNow.AddHours(-1));
            File.WriteAllText(Path.Combine(free, PrivatePostgres.LockFile), "");
            File.SetLastWriteTimeUtc(Path.Combine(free, PrivatePostgres.LockFile), DateTime.UtcNow.AddHours(-1));
            Directory.CreateDirectory(Path.Combine(free, "data", "base"));
            File.WriteAllText(Path.Combine(young, PrivatePostgres.LockFile), "");

            LeftFolders.Sweep(Path.GetTempPath(), TimeSpan.FromMinutes(1));

            Assert.False(Directory.Exists(free), "a folder whose lock no process holds was left");
            Assert.True(Directory.Exists(unmarked), "a folder without a lock file (another tplab's, being made) was deleted");
            Assert.True(Directory.Exists(young), "a folder younger than the minimum age was deleted");
            Assert.False(Directory.Exists(emptyOld), "an empty folder older than the minimum age was left");
            Assert.True(Directory.Exists(unmarkedOld), "a folder with files and no lock file was deleted");
        }
        finally
        {
            foreach (var dir in new[] { free, unmarked, young, emptyOld, unmarkedOld }.Where(Directory.Exists))
            {
                Directory.Delete(dir, recursive: true);
            }
        }
    }

    // The guardian: `/bin/sh -c SCRIPT tplab-pg FOLDER …`, in a session of its own.
    private int Guardian() => _orphans.Marked().FirstOrDefault(p => ProcessFiles.CommandLine(p).Contains("tplab-pg"));

    private static string FolderOf(int guardian)
    {
        var args = ProcessFiles.CommandLine(guardian);
        var folder = args[args.ToList().IndexOf("tplab-pg") + 1];
        Assert.Contains(PrivatePostgres.FolderPrefix, folder, StringComparison.Ordinal);
        return folder;
    }

    // A marked process running the program whose path ends so (the guardian's script names initdb too).
    private int MarkedProgram(string ending) =>
        _orphans.Marked().FirstOrDefault(p => ProcessFiles.CommandLine(p).FirstOrDefault()?.EndsWith(ending, StringComparison.Ordinal) == true);

    // The processes with the file open, with their command lines.
    private static IEnumerable<string> Holders(string file) =>
        ProcessFiles.AllProcessIds().Where(pid =>
        {
            try
            {
                return Directory.EnumerateFileSystemEntries($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/fd").Any(fd => new FileInfo(fd).LinkTarget == file);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                return false;
            }
        }).Select(pid => $"{pid} {string.Join(' ', ProcessFiles.CommandLine(pid))}");
}
