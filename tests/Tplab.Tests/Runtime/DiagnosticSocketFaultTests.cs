using System.Diagnostics;
using System.Globalization;
using Tplab.Common;
using Tplab.Runtime;
using Tplab.Tests.Support;

namespace Tplab.Tests.Runtime;

/// <summary>Runs alone: it shortens the wait for a runtime's answer, which would fail real sessions of tests running beside it.</summary>
[CollectionDefinition(nameof(DiagnosticSocketFaults), DisableParallelization = true)]
public sealed class DiagnosticSocketFaults;

/// <summary>
/// A diagnostic socket that refuses, stalls, or disconnects mid-session (issue 21): watch and diagnose end within a
/// bound, in one line with a documented exit code, never hanging and never answering as if the watch had happened.
/// </summary>
[Collection(nameof(DiagnosticSocketFaults))]
public sealed class DiagnosticSocketFaultTests : IDisposable
{
    private readonly TimeSpan _before = RuntimeConnection.AnswerTimeout;

    public DiagnosticSocketFaultTests() => RuntimeConnection.AnswerTimeout = TimeSpan.FromSeconds(2);

    public void Dispose() => RuntimeConnection.AnswerTimeout = _before;

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
        await using var server = FakeDiagnosticServer.Start(SocketFault.Stalls);

        var (code, stdout, stderr) = await InProcessCli.RunAsync(CultureInfo.InvariantCulture, "ps", "--sample", "0.5s").WaitAsync(TimeSpan.FromSeconds(30));

        Assert.True(code == 0, stderr);
        var row = Assert.Single(stdout.Split('\n'), l => l.TrimStart().StartsWith(server.ProcessId.ToString(CultureInfo.InvariantCulture) + " ", StringComparison.Ordinal));
        Assert.Contains("did not answer", row, StringComparison.Ordinal);
    }
}
