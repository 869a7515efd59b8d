using Tplab.Processes;
using Tplab.Tests.Support;

namespace Tplab.Tests.Processes;

/// <summary>A child's output on its own: the lines kept, the waits for a line, the last lines said in an error, an exit in words.</summary>
[ParallelSafe]
public sealed class ChildOutputTests
{
    [Fact]
    public async Task WaitFor_ALineAlreadyKept_IsAnsweredAtOnce_AndALaterOneWhenItComes()
    {
        var output = new ChildOutput();
        output.Add("starting");
        output.Add("listening on http://127.0.0.1:5000");

        var kept = output.WaitFor(l => l.StartsWith("listening", StringComparison.Ordinal));
        var later = output.WaitFor(l => l == "ready");

        Assert.True(kept.IsCompletedSuccessfully);
        Assert.Equal("listening on http://127.0.0.1:5000", await kept);
        Assert.False(later.IsCompleted);
        output.Add("ready");
        Assert.Equal("ready", await later);
    }

    [Fact]
    public void Recent_KeepsTheLast40Lines()
    {
        var output = new ChildOutput();
        for (var i = 0; i < 100; i++)
        {
            output.Add($"line {i}");
        }

        Assert.Equal(40, output.Recent.Count);
        Assert.Equal("line 60", output.Recent[0]);
        Assert.Equal("line 99", output.Recent[^1]);
    }

    [Fact]
    public void LastLines_LeaveOutStackFramesBlankAndOwnLines()
    {
        var output = new ChildOutput();
        foreach (var line in new[] { "guardian: started", "Unhandled exception. System.IO.IOException: address already in use", "   at TargetHost.RunAsync()", "--- End of stack trace ---", "" })
        {
            output.Add(line);
        }

        Assert.Equal("Unhandled exception. System.IO.IOException: address already in use", output.LastLines(3, l => l.StartsWith("guardian:", StringComparison.Ordinal)));
        Assert.Equal("(no output)", new ChildOutput().LastLines(3));
    }

    [Theory]
    [InlineData(null, "exited")]
    [InlineData(0, "exited with code 0")]
    [InlineData(127, "exited with code 127 (command not found)")]
    [InlineData(137, "was killed by signal 9 (SIGKILL)")]
    [InlineData(143, "was killed by signal 15 (SIGTERM)")]
    public void ExitWords_SayHowTheChildEnded(int? code, string expected) => Assert.Equal(expected, ExitWords.Describe(code));
}
