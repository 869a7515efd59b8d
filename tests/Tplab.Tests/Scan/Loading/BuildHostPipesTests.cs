using System.Diagnostics;
using Tplab.Scan.Loading;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Loading;

/// <summary>The pipe Roslyn's build host leaves in /tmp: removed once the host has ended, and nothing else touched.</summary>
[ParallelSafe]
public sealed class BuildHostPipesTests
{
    private static int EndedProcess()
    {
        using var quick = Process.Start("true")!;
        quick.WaitForExit();
        return quick.Id;
    }

    private static IReadOnlyList<string> Host(string pipe) =>
        ["dotnet", "--roll-forward", "LatestMajor", "/app/BuildHost-netcore/" + WorkspaceLoader.BuildHostName + ".dll", pipe, "en-US"];

    public static TheoryData<string, bool> Leftovers => new()
    {
        // What the host leaves: an empty file named by its pipe argument.
        { "empty", true },
        // Anything else under that name is not the host's.
        { "written", false },
        { "folder", false },
        { "link", false },
    };

    [Theory]
    [MemberData(nameof(Leftovers))]
    public void RemoveEnded_AnEndedHostsPipe_IsRemovedAndNothingElse(string kind, bool removed)
    {
        var pipe = Guid.NewGuid().ToString("D");
        var path = Path.Combine(Path.GetTempPath(), pipe);
        var target = Path.GetTempFileName();
        try
        {
            switch (kind)
            {
                case "empty": File.WriteAllBytes(path, []); break;
                case "written": File.WriteAllText(path, "a user's"); break;
                case "folder": Directory.CreateDirectory(path); break;
                default: File.CreateSymbolicLink(path, target); break;
            }

            BuildHostPipes.RemoveEnded([(EndedProcess(), Host(pipe))]);

            Assert.Equal(!removed, File.Exists(path) || Directory.Exists(path));
            Assert.True(File.Exists(target));
        }
        finally
        {
            if (Directory.Exists(path))
            {
                Directory.Delete(path);
            }
            File.Delete(path);
            File.Delete(target);
        }
    }

    [Fact]
    public void RemoveEnded_AHostStillRunningOrACommandLineWithoutAPipe_KeepsTheFile()
    {
        var pipe = Guid.NewGuid().ToString("D");
        var path = Path.Combine(Path.GetTempPath(), pipe);
        File.WriteAllBytes(path, []);
        try
        {
            BuildHostPipes.RemoveEnded([(Environment.ProcessId, Host(pipe))]);
            BuildHostPipes.RemoveEnded([(EndedProcess(), ["dotnet", "other.dll", pipe])]);
            BuildHostPipes.RemoveEnded([(EndedProcess(), Host("not-a-guid"))]);

            Assert.True(File.Exists(path));
        }
        finally
        {
            File.Delete(path);
        }
    }
}
