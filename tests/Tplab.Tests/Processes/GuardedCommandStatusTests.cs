using Tplab.Processes;

namespace Tplab.Tests.Processes;

/// <summary>
/// The guardian's status is carried out of band (<see cref="GuardianStatus"/>): its lines share the pipe with the
/// command's output, so a command that prints them must not make tplab think it started elsewhere or exited.
/// </summary>
public sealed class GuardedCommandStatusTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-guarded-").FullName;

    [Fact]
    public async Task HasExited_CommandPrintsTheGuardiansLines_RunningUntilItExitsWithItsOwnCode()
    {
        await using var run = await GuardedCommand.StartAsync(
            "echo 'tplab-guardian: started 1'; echo 'tplab-guardian: exited 0'; while [ ! -e release ]; do sleep 0.1; done; exit 9", _folder, [], "the command", CancellationToken.None);
        await run.Guardian.WaitForLineAsync(l => l == "tplab-guardian: exited 0", TimeSpan.FromSeconds(60));
        Assert.NotEqual(1, run.GroupId);
        Assert.False(run.HasExited, "a line the command printed was taken for the guardian's");
        Assert.Null(run.Exited);
        Assert.Null(run.ExitCode);

        await File.WriteAllTextAsync(Path.Combine(_folder, "release"), "");
        Assert.Equal(9, await run.WaitForExitAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(60)));
        Assert.True(run.HasExited);
        Assert.Equal(9, run.ExitCode);
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
