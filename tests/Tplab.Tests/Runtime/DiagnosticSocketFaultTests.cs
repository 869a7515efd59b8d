using System.Diagnostics;
using System.Globalization;
using Tplab.Common;
using Tplab.Runtime;
using Tplab.Tests.Support;

namespace Tplab.Tests.Runtime;

/// <summary>
/// A diagnostic socket that refuses, stalls, or disconnects mid-session (issue 21): watch and diagnose end within a
/// bound, in one line with a documented exit code, never hanging and never answering as if the watch had happened.
/// Each test shortens the wait for a runtime's answer for its own commands only (the setting is per async flow). In
/// the watch lane: its fake runtime (a <c>sleep</c> with a socket that misbehaves) must not be met by the lane's
/// tests that list every .NET process.
/// </summary>
[Collection(TestCollections.Watch)]
public sealed class DiagnosticSocketFaultTests
{
    private static readonly TimeSpan Answer = TimeSpan.FromSeconds(2);

    [Theory]
    [InlineData(SocketFault.Refuses, "watch", "is not a .NET process")]
    [InlineData(SocketFault.Refuses, "diagnose", "is not a .NET process")]
    [InlineData(SocketFault.Stalls, "watch", "did not answer on its diagnostic socket within 2s")]
    [InlineData(SocketFault.Stalls, "diagnose", "did not answer on its diagnostic socket within 2s")]
    [InlineData(SocketFault.Disconnects, "watch", "closed its diagnostic connection during the watch")]
    [InlineData(SocketFault.Disconnects, "diagnose", "closed its diagnostic connection")]
    [InlineData(SocketFault.DisconnectsLate, "diagnose", "closed its diagnostic connection during the capture")]
    public async Task Socket_Misbehaving_OneLineExit5WithinBound(SocketFault fault, string command, string expected)
    {
        RuntimeConnection.AnswerTimeout = Answer;
        await using var server = FakeDiagnosticServer.Start(fault);
        var pid = server.ProcessId.ToString(CultureInfo.InvariantCulture);
        var clock = Stopwatch.StartNew();

        var (code, _, stderr) = await InProcessCli.RunAsync(CultureInfo.InvariantCulture, command, pid, "--duration", "1s")
            .WaitAsync(TimeSpan.FromSeconds(30));

        Assert.True(code == ExitCodes.NoProcess, $"exit {code}: {stderr}");
        var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries), l => l.StartsWith("tplab: ", StringComparison.Ordinal));
        Assert.Contains(expected, line, StringComparison.Ordinal);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(20), $"took {clock.Elapsed}");
    }

    [Fact]
    public async Task Ps_StalledSocket_ListsTheProcessWithWhyAndEnds()
    {
        RuntimeConnection.AnswerTimeout = Answer;
        await using var server = FakeDiagnosticServer.Start(SocketFault.Stalls);

        var (code, stdout, stderr) = await InProcessCli.RunAsync(CultureInfo.InvariantCulture, "ps", "--sample", "0.5s").WaitAsync(TimeSpan.FromSeconds(30));

        Assert.True(code == 0, stderr);
        var lines = stdout.Split('\n');
        var at = Array.FindIndex(lines, l => l.TrimStart().StartsWith(server.ProcessId.ToString(CultureInfo.InvariantCulture) + " ", StringComparison.Ordinal));
        Assert.True(at >= 0, stdout);
        // The row with the lines its verdict wraps onto (a long reason of another process can narrow the column).
        var row = string.Join(' ', lines.Skip(at).TakeWhile((l, i) => i == 0 || (l.StartsWith(' ') && !char.IsAsciiDigit(l.TrimStart().FirstOrDefault())))
            .Select(l => l.Trim()));
        Assert.Contains("did not answer", row, StringComparison.Ordinal);
    }
}
