using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Tplab.Common;
using Tplab.Launch;
using Tplab.Tests.Support;

namespace Tplab.Tests.Watch;

/// <summary>The real tplab CLI: each bad input is one line and its documented exit code; -- COMMAND watches from start-up.</summary>
[Collection(TestCollections.Watch)]
public sealed class WatchCliTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task NoSuchProcess_Exits5()
    {
        var pid = Enumerable.Range(400000, 1000).First(p => !Directory.Exists($"/proc/{p}"));
        var (code, _, stderr) = await TplabCli.RunAsync(Limit, "watch", pid.ToString(CultureInfo.InvariantCulture));
        Assert.Equal(ExitCodes.NoProcess, code);
        Assert.Equal($"tplab: no process with id {pid}", stderr.Trim());
    }

    [Fact]
    public async Task NotADotNetProcess_Exits5_AndSaysSo()
    {
        using var sleep = Process.Start(new ProcessStartInfo("sleep", "30") { RedirectStandardInput = true })!;
        try
        {
            var (code, _, stderr) = await TplabCli.RunAsync(Limit, "watch", sleep.Id.ToString(CultureInfo.InvariantCulture));
            Assert.Equal(ExitCodes.NoProcess, code);
            Assert.Contains("is not a .NET process", stderr, StringComparison.Ordinal);
            Assert.Single(stderr.Trim().Split('\n'));
        }
        finally
        {
            sleep.Kill();
        }
    }

    // Needs root to run tplab as another user (skipped with that reason otherwise); the CI machine is root.
    [RootFact]
    public async Task OtherUsersProcess_Exits6_PermissionDenied()
    {
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions());
        // The build may sit under a folder only root can enter (a clone in a mktemp folder): give nobody a copy.
        var cli = WorldReadableCopyOfCli();
        var info = new ProcessStartInfo("/usr/bin/setpriv")
        {
            ArgumentList = { "--reuid=65534", "--regid=65534", "--clear-groups", DotnetHost.Path, Path.Combine(cli, "tplab.dll"), "watch", target.ProcessId.ToString(CultureInfo.InvariantCulture), "--duration", "1s" },
            RedirectStandardError = true,
            RedirectStandardOutput = true,
        };
        info.Environment["HOME"] = "/tmp";
        using var nobody = Process.Start(info)!;
        var stderr = await nobody.StandardError.ReadToEndAsync();
        await nobody.WaitForExitAsync().WaitAsync(Limit);
        Directory.Delete(cli, recursive: true);
        Assert.True(nobody.ExitCode == ExitCodes.PermissionDenied, $"exit {nobody.ExitCode}: {stderr}");
        Assert.Contains("permission denied on the diagnostic socket", stderr, StringComparison.Ordinal);
    }

    private static string WorldReadableCopyOfCli()
    {
        var copy = Path.Combine("/tmp", "tplab-cli-" + Guid.NewGuid().ToString("N")[..8]);
        foreach (var file in Directory.EnumerateFiles(AppContext.BaseDirectory, "*", SearchOption.AllDirectories))
        {
            var to = Path.Combine(copy, Path.GetRelativePath(AppContext.BaseDirectory, file));
            Directory.CreateDirectory(Path.GetDirectoryName(to)!);
            File.Copy(file, to);
        }
        const UnixFileMode open = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute
            | UnixFileMode.GroupRead | UnixFileMode.GroupExecute | UnixFileMode.OtherRead | UnixFileMode.OtherExecute;
        foreach (var dir in Directory.EnumerateDirectories(copy, "*", SearchOption.AllDirectories).Append(copy))
        {
            if (!OperatingSystem.IsWindows())
            {
                File.SetUnixFileMode(dir, open);
            }
        }
        return copy;
    }

    [Theory]
    [InlineData("0.1s", "--interval must be at least 0.25 s")]
    [InlineData("fast", "--interval must be a duration")]
    public async Task BadInterval_IsAUsageError(string interval, string message)
    {
        var (code, _, stderr) = await TplabCli.RunAsync(Limit, "watch", "1", "--interval", interval);
        Assert.Equal(ExitCodes.Usage, code);
        Assert.Contains(message, stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task NotAPid_WithoutDoubleDash_IsAUsageError()
    {
        var (code, _, stderr) = await TplabCli.RunAsync(Limit, "watch", "myapp");
        Assert.Equal(ExitCodes.Usage, code);
        Assert.Contains("put -- before it", stderr, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ProcessExitingDuringTheWatch_Exits7_KeepsTheData_LastLineSaysSo()
    {
        var target = await TargetProcess.StartTargetAsync(new TargetOptions());
        var samples = 0;
        var watch = TplabCli.RunAsync(Limit, new Dictionary<string, string>(), line =>
        {
            using var record = JsonDocument.Parse(line);
            if (record.RootElement.GetProperty("type").GetString() == "sample")
            {
                Interlocked.Increment(ref samples);
            }
        }, "watch", target.ProcessId.ToString(CultureInfo.InvariantCulture), "--interval", "0.25s", "--format", "jsonl");
        // Killed once the watch has written samples, whenever that is on a loaded machine.
        await Eventually.UntilAsync(() => Volatile.Read(ref samples) >= 3, TimeSpan.FromSeconds(30), "three samples written");
        target.Process.Kill();
        await target.DisposeAsync();
        var (code, stdout, stderr) = await watch;

        Assert.Equal(ExitCodes.ProcessExited, code);
        Assert.Contains("exited during the watch; the data so far was kept", stderr.Trim().Split('\n')[^1], StringComparison.Ordinal);
        var lines = stdout.Trim().Split('\n');
        Assert.True(lines.Length >= 4, stdout);
        using var summary = JsonDocument.Parse(lines[^1]);
        Assert.Equal("summary", summary.RootElement.GetProperty("type").GetString());
        Assert.True(summary.RootElement.GetProperty("processExited").GetBoolean());
    }

    [Fact]
    public async Task DoubleDashCommand_IsWatchedFromItsFirstMoment()
    {
        var output = Path.Combine(Path.GetTempPath(), $"tplab-watch-{Guid.NewGuid():N}.jsonl");
        try
        {
            var targetDll = Path.Combine(AppContext.BaseDirectory, "Tplab.Target.dll");
            var (code, _, stderr) = await TplabCli.RunAsync(Limit,
                "watch", "--interval", "0.5s", "--duration", "6s", "--output", output, "--", DotnetHost.Path, targetDll, "serve", "--port", "0");
            Assert.True(code == ExitCodes.Ok, stderr);
            var records = File.ReadAllLines(output).Select(l => JsonDocument.Parse(l).RootElement).ToList();
            // Samples over the app's life, never more than one an interval (the first waits for the runtime's counters,
            // which a clean clone's loaded run saw take most of a 3 s watch: one sample; 6 s leaves room for two).
            Assert.InRange(records.Count(r => r.GetProperty("type").GetString() == "sample"), 2, (int)(6 / 0.5) + 1);
            var summary = records[^1];
            // Event 59 is emitted when the pool is created: seeing it proves the session began before the app ran.
            Assert.True(summary.TryGetProperty("minWorkerThreads", out var min) && min.GetInt32() >= 1, records[^1].ToString());
            Assert.Equal("healthy", summary.GetProperty("verdict").GetString());
        }
        finally
        {
            File.Delete(output);
        }
    }

    [Fact]
    public async Task CsvFormat_WritesAHeaderAndOneRowPerSample()
    {
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions());
        // The first sample waits for the runtime's first counters, one interval or more after attach (1.9 s seen on a
        // loaded machine): at least one sample, and never more than one an interval (3 s at the default 1 s).
        var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, "watch", target.ProcessId.ToString(CultureInfo.InvariantCulture), "--duration", "3s", "--format", "csv");
        Assert.True(code == ExitCodes.Ok, stderr);
        var lines = stdout.Trim().Split('\n');
        Assert.StartsWith("pid,offset_s,threads,queue,", lines[0], StringComparison.Ordinal);
        Assert.InRange(lines.Length - 1, 1, 3 + 1);
        Assert.EndsWith("\"", lines[1], StringComparison.Ordinal);
    }
}
