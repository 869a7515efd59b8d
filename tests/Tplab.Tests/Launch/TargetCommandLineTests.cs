using System.Diagnostics;
using Tplab.Launch;
using Tplab.Target;

namespace Tplab.Tests.Launch;

/// <summary>The target's command line: what the launcher writes, the target reads back, and nothing else.</summary>
public sealed class TargetCommandLineTests
{
    [Fact]
    public void ToArguments_ParsedBack_IsTheSameLine()
    {
        var line = new TargetCommandLine
        {
            Mode = "downstream", Port = 8080, Downstream = "http://127.0.0.1:9/", MinThreads = 40,
            RequestTimeout = TimeSpan.FromMilliseconds(2500), WatchParent = true, ConnectionString = "Host=x",
        };

        Assert.Equal(line, TargetCommandLine.Parse(line.ToArguments(), "Host=x"));
    }

    [Theory]
    // unknown words are refused, not ignored
    [InlineData("serve --frobnicate", "unknown flag '--frobnicate'")]
    [InlineData("serv", "unknown mode 'serv' (serve or downstream)")]
    // values are checked, in the invariant culture
    [InlineData("serve --port", "--port needs a value")]
    [InlineData("serve --port 70000", "--port must be a whole number from 0 to 65535, got '70000'")]
    [InlineData("serve --min-threads 1.5", "--min-threads must be a whole number from 1 to 32767, got '1.5'")]
    [InlineData("serve --request-timeout-ms -1", "--request-timeout-ms must be a whole number from 1 to 2147483647, got '-1'")]
    public void Parse_BadLine_SaysWhatIsWrong(string args, string message)
    {
        var e = Assert.Throws<ArgumentException>(() => TargetCommandLine.Parse(args.Split(' '), null));
        Assert.Equal(message, e.Message);
    }

    [Fact]
    public async Task TargetProcess_UnknownFlag_ExitsWithUsageAndOneLine()
    {
        var info = new ProcessStartInfo(DotnetHost.Path) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var a in new[] { "exec", DotnetHost.TargetFile(".dll"), "serve", "--port", "0", "--frobnicate" })
        {
            info.ArgumentList.Add(a);
        }
        using var process = Process.Start(info)!;
        var stderr = await process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(60));

        Assert.Equal(2, process.ExitCode);
        Assert.Equal("tplab-target: unknown flag '--frobnicate'", stderr.Trim());
    }
}
