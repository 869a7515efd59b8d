using Tplab.Common;
using Tplab.Lab.Results;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;

namespace Tplab.Tests.Common;

public sealed class AtomicFileTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-atomic-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public void Write_ReplacesTheFileWhole_AndLeavesNoTemporaryFile()
    {
        var path = Path.Combine(_folder, "summary.json");
        File.WriteAllText(path, "old");
        AtomicFile.WriteAllText(path, "new");
        Assert.Equal("new", File.ReadAllText(path));
        Assert.Equal([path], Directory.GetFiles(_folder));
    }

    [Fact]
    public void Write_ThatFailsHalfWay_KeepsTheOldFile()
    {
        var path = Path.Combine(_folder, "report.html");
        File.WriteAllText(path, "old report");
        Assert.Throws<InvalidOperationException>(() => AtomicFile.Write(path, w =>
        {
            w.Write(new string('x', 100_000));
            throw new InvalidOperationException("killed mid-write");
        }));
        Assert.Equal("old report", File.ReadAllText(path));
        Assert.Equal([path], Directory.GetFiles(_folder));
    }

    [Fact]
    public void Create_InAMissingFolder_NamesTheUsersFolder_NotTheTemporaryFile()
    {
        var path = Path.Combine(_folder, "no", "such", "out.json");
        var e = Assert.Throws<DirectoryNotFoundException>(() => AtomicFile.Create(path));
        Assert.Contains(Path.Combine(_folder, "no", "such"), e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(".tmp", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Create_OnAFolder_FailsAtOnce() =>
        Assert.Throws<IOException>(() => AtomicFile.Create(_folder));

    // The lab rewrites summary.json and report.html after every experiment. Rewritten in place (truncate, then write),
    // a reader holding the file, or a run killed in between, saw a truncated or mixed file. Written whole and renamed,
    // a reader that opened the old version keeps reading the old version, complete.
    [Theory]
    [InlineData("summary.json")]
    [InlineData("report.html")]
    public void ResultsWriter_Rewrite_NeverChangesTheFileUnderAReader(string name)
    {
        var writer = new ResultsWriter(_folder, new LabOptions { ResultsRoot = _folder }, SeedFigures.Load());
        writer.WriteSummary(new LabResult(_folder, [], [], Interrupted: false));
        var path = Path.Combine(_folder, name);
        var before = File.ReadAllText(path);
        using var reader = new StreamReader(path);

        writer.WriteSummary(new LabResult(_folder, [], [("siege-db", "no PostgreSQL")], Interrupted: true));

        Assert.Equal(before, reader.ReadToEnd());
        Assert.NotEqual(before, File.ReadAllText(path));
        Assert.Equal(["report.html", "summary.json"], Directory.GetFiles(_folder).Select(Path.GetFileName).Order());
    }

    // -o /dev/null or a FIFO (a process substitution): a temporary file renamed over it would replace the device or
    // the pipe with a regular file (as root, /dev/null itself). Such files are written in place.
    [Fact]
    public async Task Write_ToAFifo_WritesThroughItAndLeavesItAFifo()
    {
        var fifo = Path.Combine(_folder, "out.fifo");
        using (var mkfifo = System.Diagnostics.Process.Start("mkfifo", [fifo]))
        {
            await mkfifo.WaitForExitAsync();
        }
        var reading = Task.Run(() => File.ReadAllText(fifo));

        AtomicFile.WriteAllText(fifo, "through the pipe");

        Assert.Equal("through the pipe", await reading.WaitAsync(TimeSpan.FromSeconds(10)));
        Assert.True(FileKind.IsSpecial(fifo), "the FIFO was replaced by a regular file");
        Assert.True(FileKind.IsSpecial("/dev/null"));
        Assert.False(FileKind.IsSpecial(Path.Combine(_folder, "nothing-here")));
        Assert.Equal(["out.fifo"], Directory.GetFileSystemEntries(_folder).Select(Path.GetFileName));
    }
}
