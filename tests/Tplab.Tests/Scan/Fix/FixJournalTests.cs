using System.Text;
using Tplab.Scan;
using Tplab.Scan.Fix;
using Tplab.Scan.Fix.Applying;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// SIGKILL during <c>--apply</c> or its <c>--verify</c>: the journal written before the first file is replaced lets the
/// next run put every original back, bytes and mode; a journal of a tplab still running is left alone.
/// </summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class FixJournalTests : IDisposable
{
    private readonly string _tree = Directory.CreateTempSubdirectory("tplab-journal-").FullName;

    [Fact]
    public void Recover_JournalOfAKilledRun_EveryFileRestoredWithItsModeJournalRemoved()
    {
        var script = Make("run.sh", "echo before\n", (UnixFileMode)0b111_101_101);
        var secret = Make("Secret.cs", "class Before {}\n", (UnixFileMode)0b110_000_000);
        // What a run killed after its write leaves: the fix's files, and its journal (its process is gone: this one
        // stands for it, a live process never being its own previous run).
        var originals = FixFiles.Write([new FileChange(script, "run.sh", "echo before\n", "echo after\n"), new FileChange(secret, "Secret.cs", "class Before {}\n", "class After {}\n")],
            o => FixJournal.Begin(_tree, o));
        Assert.Equal(2, originals.Count);
        Assert.Equal("echo after\n", File.ReadAllText(script));
        var lines = new Lines();

        FixJournal.Recover(_tree, lines);

        Assert.Equal("echo before\n", File.ReadAllText(script));
        Assert.Equal((UnixFileMode)0b111_101_101, File.GetUnixFileMode(script));
        Assert.Equal("class Before {}\n", File.ReadAllText(secret));
        Assert.Equal((UnixFileMode)0b110_000_000, File.GetUnixFileMode(secret));
        Assert.False(File.Exists(Path.Combine(_tree, FixJournal.FileName)));
        Assert.Contains("restored 2 file(s)", Assert.Single(lines.All), StringComparison.Ordinal);
    }

    [Fact]
    public void Recover_JournalOfARunningTplab_LeftAlone()
    {
        var file = Make("a.cs", "after\n", (UnixFileMode)0b110_100_100);
        var journal = Path.Combine(_tree, FixJournal.FileName);
        // Process 1 is always alive.
        File.WriteAllText(journal, $$"""{"processId":1,"files":[{"path":"{{file}}","mode":420,"bytes":"{{Convert.ToBase64String(Encoding.UTF8.GetBytes("before\n"))}}"}]}""");

        FixJournal.Recover(_tree, new Lines());

        Assert.Equal("after\n", File.ReadAllText(file));
        Assert.True(File.Exists(journal));
    }

    public void Dispose() => Directory.Delete(_tree, recursive: true);

    private string Make(string name, string text, UnixFileMode mode)
    {
        var path = Path.Combine(_tree, name);
        File.WriteAllText(path, text);
        File.SetUnixFileMode(path, mode);
        return path;
    }

    private sealed class Lines : IScanProgress
    {
        public List<string> All { get; } = [];

        public void Line(string text) => All.Add(text);

        public void Status(string text)
        {
        }
    }
}
