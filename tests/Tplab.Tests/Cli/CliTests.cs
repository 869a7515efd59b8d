using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli;

/// <summary>The tplab command as a user meets it: version, help, and one clear line for bad input.</summary>
public sealed class CliTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Version_PrintsTheVersion()
    {
        var (code, stdout, _) = await TplabCli.RunAsync(Limit, "--version");
        Assert.Equal(0, code);
        Assert.Matches(@"^\d+\.\d+\.\d+", stdout.Trim());
    }

    [Fact]
    public async Task Help_ListsTheCommands()
    {
        var (code, stdout, _) = await TplabCli.RunAsync(Limit, "--help");
        Assert.Equal(0, code);
        Assert.Contains("serve", stdout, StringComparison.Ordinal);
        Assert.Contains("downstream", stdout, StringComparison.Ordinal);
    }

    // Help needs none of the command's required arguments (compare's A and B once made it an internal error).
    [Theory]
    [InlineData("serve")]
    [InlineData("downstream")]
    [InlineData("load")]
    [InlineData("run")]
    [InlineData("compare")]
    [InlineData("tune")]
    [InlineData("watch")]
    [InlineData("diagnose")]
    [InlineData("ps")]
    [InlineData("scan")]
    [InlineData("fix")]
    public async Task Help_OfEachCommand_PrintsUsageAndExits0(string command)
    {
        var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, command, "--help");
        Assert.True(code == 0, $"exit {code}: {stderr}");
        Assert.Contains($"tplab {command}", stdout, StringComparison.Ordinal);
        Assert.Empty(stderr);
    }

    [Theory]
    // unknown things
    [InlineData("frobnicate")]
    [InlineData("serve", "--bogus")]
    // values out of range or of the wrong type
    [InlineData("serve", "--port", "70000")]
    [InlineData("serve", "--port", "abc")]
    [InlineData("serve", "--min-threads", "0")]
    [InlineData("serve", "--knob", "NoEquals")]
    [InlineData("serve", "--downstream", "ftp://x")]
    public async Task BadInput_OneLineAndUsageExitCode(params string[] args)
    {
        var (code, stdout, stderr) = await TplabCli.RunAsync(Limit, args);
        Assert.Equal(ExitCodes.Usage, code);
        var lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Single(lines);
        Assert.StartsWith("tplab: ", lines[0], StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", stderr + stdout, StringComparison.Ordinal);
    }
}
