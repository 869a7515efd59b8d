using System.Diagnostics;
using Tplab.Common;

namespace Tplab.Processes;

/// <summary>
/// One short git command, run through tplab's process runner (its own session; the kernel's parent-death signal ends
/// it with tplab, even on kill -9) and bounded in time: a git waiting on a lock must not hold fix forever.
/// </summary>
public static class GitQuery
{
    // A status of the touched files answers in well under a second.
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    /// <summary>git's exit code and lines (stdout and stderr together) in <paramref name="folder"/>; a null code when git cannot be started.</summary>
    public static async Task<(int? ExitCode, IReadOnlyList<string> Lines)> RunAsync(string folder, IReadOnlyList<string> arguments, CancellationToken cancellationToken)
    {
        var info = new ProcessStartInfo("git") { WorkingDirectory = folder };
        foreach (var a in arguments)
        {
            info.ArgumentList.Add(a);
        }
        var name = "git " + arguments[0];
        ChildProcess git;
        try
        {
            git = ChildProcess.Start(info, name, WhenTplabEnds.ChildEndsItself);
        }
        catch (TplabException e) when (e.Message.StartsWith($"could not start {name} ", StringComparison.Ordinal))
        {
            return (null, []);
        }
        await using (git.ConfigureAwait(false))
        {
            var lines = new List<string>();
            var gate = new Lock();
            void Keep(string line)
            {
                lock (gate)
                {
                    lines.Add(line);
                }
            }
            // Lines printed before this follows it are among the recent ones; each is kept once, repeated lines too.
            using var following = git.Follow(Keep);
            try
            {
                await git.Exited.WaitAsync(Timeout, cancellationToken).ConfigureAwait(false);
            }
            catch (TimeoutException)
            {
                throw new TplabException(ExitCodes.Environment,
                    $"{name} did not answer within {Timeout.TotalSeconds:0} s in {folder}, so uncommitted changes cannot be ruled out: nothing was changed");
            }
            lock (gate)
            {
                return (git.ExitCode, [.. lines]);
            }
        }
    }
}
