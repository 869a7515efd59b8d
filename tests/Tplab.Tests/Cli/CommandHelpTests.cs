using System.Globalization;
using Tplab.Tests.Support;

namespace Tplab.Tests.Cli;

/// <summary>
/// Each command's help, from the command tree in this process (<see cref="InProcessCli"/>): the program's own start
/// and help are <see cref="CliTests"/>'; a process per command only repeated the runtime's start eleven times.
/// </summary>
[ParallelSafe]
public sealed class CommandHelpTests
{
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
        var (code, stdout, stderr) = await InProcessCli.RunAsync(CultureInfo.InvariantCulture, command, "--help");
        Assert.True(code == 0, $"exit {code}: {stderr}");
        // In this process the root command is named after the host (testhost), not tplab: the usage line names the command.
        Assert.Matches($@"Usage:\s+\S+ {command}\b", stdout);
        Assert.Empty(stderr);
    }
}
