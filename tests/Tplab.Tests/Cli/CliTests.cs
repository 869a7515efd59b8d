using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli;

/// <summary>The tplab program as a user meets it: version, help, and one clear line for bad input (each command's help: <see cref="CommandHelpTests"/>).</summary>
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

    // The real process prints the one line too: an unknown command and a value of the wrong type. Every other row is in
    // the in-process tables (Cli/BadInput, under every culture), which cost no runtime start per line.
    [Theory]
    [InlineData("frobnicate")]
    [InlineData("serve", "--port", "abc")]
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
