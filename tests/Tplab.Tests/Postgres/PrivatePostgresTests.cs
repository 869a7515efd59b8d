using Npgsql;
using Tplab.Postgres;
using Tplab.Tests.Support;

namespace Tplab.Tests.Postgres;

/// <summary>The private, throwaway PostgreSQL: real server binaries, gone when its owner ends.</summary>
public sealed class PrivatePostgresTests
{
    [Fact]
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

    [Fact]
    public async Task OwnerKilled_ServerAndFolderAreGone()
    {
        await using var serve = TplabCli.Start("serve", "--port", "0");
        var ready = await serve.WaitForLineAsync(l => l.StartsWith("tplab serve: listening", StringComparison.Ordinal), TimeSpan.FromSeconds(90));
        var folder = System.Text.RegularExpressions.Regex.Match(ready, @"\S*tplab-pg-[0-9a-f]+").Value;
        Assert.True(Directory.Exists(folder), ready);
        var targetPid = int.Parse(ready.Split("target pid ")[1].Split(',')[0], System.Globalization.CultureInfo.InvariantCulture);

        // kill -9 of the CLI alone: its children get no signal and must notice by themselves.
        System.Diagnostics.Process.GetProcessById(serve.Id).Kill(entireProcessTree: false);

        Assert.True(await ProcessTable.EventuallyAsync(() => !Directory.Exists(folder) && ProcessTable.WithCommandLine(folder).Count == 0, TimeSpan.FromSeconds(30)),
            $"PostgreSQL in {folder} outlived its owner");
        Assert.True(await ProcessTable.EventuallyAsync(() => !ProcessTable.IsAlive(targetPid), TimeSpan.FromSeconds(10)), "the target outlived its owner");
    }

    [Fact]
    public void Find_WithMissingBinaries_SaysHowToInstall()
    {
        Assert.Contains("apt-get install postgresql", PostgresBinaries.HowToEnable, StringComparison.Ordinal);
        Assert.Contains("--pg", PostgresBinaries.HowToEnable, StringComparison.Ordinal);
    }
}
