using System.Diagnostics;
using Tplab.Processes;
using Tplab.Tests.Support;

namespace Tplab.Tests.Processes;

/// <summary>
/// The guard over children a library starts for tplab (Roslyn's MSBuild build host): it looks often until it finds the
/// first, then less often, and still finds the ones started later.
/// </summary>
public sealed class ChildGuardTests
{
    [Fact]
    public async Task Guard_FindsTheFirstChildAndOneStartedAfterIt_AndKillsBoth()
    {
        var marker = "tplab-guard-test-" + Guid.NewGuid().ToString("N");
        using var guard = ChildGuard.Start(args => args.Contains(marker), TimeSpan.FromMilliseconds(10));
        var children = new List<Process> { Start(marker) };
        try
        {
            await Eventually.UntilAsync(() => guard.Watched == 1, TimeSpan.FromSeconds(10), "the first child watched");
            // The guard now looks every ChildGuard.AfterFirst: a child started later is found within a few looks.
            children.Add(Start(marker));
            await Eventually.UntilAsync(() => guard.Watched == 2, TimeSpan.FromSeconds(10), "the second child watched");

            guard.KillWatched();

            Assert.All(children, c => Assert.True(c.WaitForExit(10_000), $"child {c.Id} outlived KillWatched"));
        }
        finally
        {
            foreach (var child in children)
            {
                if (!child.HasExited)
                {
                    child.Kill(entireProcessTree: true);
                }
                child.Dispose();
            }
        }
    }

    // A compound command, so the shell is not replaced by sleep and keeps the marker in its command line.
    private static Process Start(string marker) =>
        Process.Start(new ProcessStartInfo("/bin/sh") { ArgumentList = { "-c", "sleep 60; :", marker } })!;
}
