using System.Text;
using Tplab.Common;
using Tplab.Scan;
using Tplab.Scan.Fix;
using Tplab.Tests.Support;
using Tplab.Scan.Fix.Applying;

namespace Tplab.Tests.Scan.Fix;

/// <summary>--apply's write: BOM, line endings and permissions kept; all files or none; --verify's exit code.</summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class FixFilesTests : IDisposable
{
    private static readonly byte[] Bom = [0xEF, 0xBB, 0xBF];
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-fixfiles-").FullName;

    [Fact]
    public void Write_BomAndCrlfFile_KeepsBomLineEndingsAndMode()
    {
        var path = Make("a.cs", [.. Bom, .. Encoding.UTF8.GetBytes("a\r\nb\r\n")]);
        File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead);
        FixFiles.Write([new FileChange(path, "a.cs", "a\r\nb\r\n", "a\r\nc\r\n")]);
        Assert.Equal([.. Bom, .. Encoding.UTF8.GetBytes("a\r\nc\r\n")], File.ReadAllBytes(path));
        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead, File.GetUnixFileMode(path));
    }

    [Fact]
    public void Write_OneFileChangedMeanwhile_RefusedAndNoFileChanged()
    {
        var first = Make("first.cs", Encoding.UTF8.GetBytes("x\n"));
        var second = Make("second.cs", Encoding.UTF8.GetBytes("edited by the user\n"));
        var e = Assert.Throws<TplabException>(() => FixFiles.Write([
            new FileChange(first, "first.cs", "x\n", "y\n"),
            new FileChange(second, "second.cs", "y\n", "z\n")]));
        Assert.Equal(ExitCodes.OutputFailed, e.ExitCode);
        Assert.Contains("second.cs changed while tplab fix ran", e.Message, StringComparison.Ordinal);
        Assert.Equal("x\n", File.ReadAllText(first));
        Assert.Empty(Directory.GetFiles(_folder, "*.tmp"));
    }

    [Fact]
    public void Write_ReadOnlyFile_RefusedAndNoFileChanged()
    {
        var first = Make("first.cs", Encoding.UTF8.GetBytes("x\n"));
        var locked = Make("locked.cs", Encoding.UTF8.GetBytes("y\n"));
        File.SetUnixFileMode(locked, UnixFileMode.UserRead | UnixFileMode.GroupRead | UnixFileMode.OtherRead);
        var e = Assert.Throws<TplabException>(() => FixFiles.Write([
            new FileChange(first, "first.cs", "x\n", "x2\n"),
            new FileChange(locked, "locked.cs", "y\n", "y2\n")]));
        Assert.Equal(ExitCodes.OutputFailed, e.ExitCode);
        Assert.Contains("locked.cs is read-only", e.Message, StringComparison.Ordinal);
        Assert.Equal("x\n", File.ReadAllText(first));
    }

    [Fact]
    public void Revert_AfterWrite_GivesTheOriginalBytesBack()
    {
        var path = Make("a.cs", [.. Bom, .. Encoding.UTF8.GetBytes("a\n")]);
        var originals = FixFiles.Write([new FileChange(path, "a.cs", "a\n", "b\n")]);
        FixFiles.Revert(originals);
        Assert.Equal([.. Bom, .. Encoding.UTF8.GetBytes("a\n")], File.ReadAllBytes(path));
    }

    [Fact]
    public async Task VerifyAsync_FailingCommand_ItsExitCodeAndOutput()
    {
        var output = new StringWriter();
        Assert.Equal(3, await FixApply.VerifyAsync("echo checking; exit 3", _folder, output, CancellationToken.None));
        Assert.Contains("checking", output.ToString(), StringComparison.Ordinal);
        Assert.Equal(0, await FixApply.VerifyAsync("true", _folder, TextWriter.Null, CancellationToken.None));
    }

    [Theory]
    [InlineData(0b111_101_101)] // 755: a script stays executable
    [InlineData(0b110_000_000)] // 600: a private file never becomes readable by others
    public void Revert_AfterWrite_GivesTheModeBackToo(int mode)
    {
        var path = Make("a.cs", Encoding.UTF8.GetBytes("a\n"));
        File.SetUnixFileMode(path, (UnixFileMode)mode);
        var originals = FixFiles.Write([new FileChange(path, "a.cs", "a\n", "b\n")]);
        Assert.Equal((UnixFileMode)mode, File.GetUnixFileMode(path));
        FixFiles.Revert(originals);
        Assert.Equal("a\n", File.ReadAllText(path));
        Assert.Equal((UnixFileMode)mode, File.GetUnixFileMode(path));
    }

    [Fact]
    public async Task ApplyAsync_VerifyFails_ContentAndModeReverted_Exit1()
    {
        var path = Make("a.cs", Encoding.UTF8.GetBytes("a\n"));
        File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite);
        var e = await Assert.ThrowsAsync<TplabException>(() => FixApply.ApplyAsync(Result(path), Options("grep -q b a.cs && exit 4"), SilentProgress.Instance, CancellationToken.None));
        Assert.Equal(ExitCodes.Failed, e.ExitCode);
        Assert.Contains("(exit 4): every change was reverted", e.Message, StringComparison.Ordinal);
        Assert.Equal("a\n", File.ReadAllText(path));
        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(path));
    }

    [Fact]
    public async Task ApplyAsync_InterruptedWhileVerifyRuns_EveryChangeReverted_Exit130()
    {
        var path = Make("a.cs", Encoding.UTF8.GetBytes("a\n"));
        File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        var started = Path.Combine(_folder, "started");
        using var interrupt = new CancellationTokenSource();
        // The verify sees the written file, says so, then runs until tplab is interrupted (Ctrl+C and SIGTERM cancel this
        // token), with a child of its own in the background, as `dotnet test` has its test hosts; the sleeps' lengths are
        // this test's own, to find them.
        var mark = string.Create(System.Globalization.CultureInfo.InvariantCulture, $"600.{Random.Shared.Next(100000, 999999)}");
        var apply = FixApply.ApplyAsync(Result(path), Options($"grep -q b a.cs && touch {started}; sleep {mark} & sleep {mark}1; wait"), SilentProgress.Instance, interrupt.Token);
        await Eventually.UntilAsync(() => File.Exists(started), TimeSpan.FromSeconds(60), "the verify command running on the written file");
        Assert.NotEmpty(ProcessTable.WithCommandLine(mark));
        await interrupt.CancelAsync();
        var e = await Assert.ThrowsAsync<TplabException>(() => apply);
        Assert.Equal(ExitCodes.Interrupted, e.ExitCode);
        Assert.Contains("every change was reverted", e.Message, StringComparison.Ordinal);
        // The command's whole group ended with it, the background child too.
        Assert.True(await ProcessTable.EventuallyAsync(() => ProcessTable.WithCommandLine(mark).Count == 0, TimeSpan.FromSeconds(20)),
            "the verify command or its child was left running");
        Assert.Equal("a\n", File.ReadAllText(path));
        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute, File.GetUnixFileMode(path));
    }

    [Fact]
    public async Task VerifyAsync_ChildLeftHoldingTheOutput_ReturnsWhenTheCommandExits()
    {
        var pidFile = Path.Combine(_folder, "child.pid");
        // A child in a session of its own (out of reach of the group's end) keeps the output pipe open after the command exits.
        var code = await FixApply.VerifyAsync($"setsid sh -c 'echo $$ > {pidFile}; exec sleep 120' & while [ ! -s {pidFile} ]; do sleep 0.1; done; exit 5", _folder, TextWriter.Null, CancellationToken.None)
            .WaitAsync(TimeSpan.FromSeconds(90));
        var child = int.Parse(File.ReadAllText(pidFile).Trim(), System.Globalization.CultureInfo.InvariantCulture);
        try
        {
            Assert.Equal(5, code);
            Assert.True(Directory.Exists($"/proc/{child}"), "the child still holds the pipe: the verify returned without waiting for it");
        }
        finally
        {
            Tplab.Processes.Signals.KillGroup(child);
        }
    }

    [Fact]
    public async Task VerifyAsync_CommandPrintsTheGuardiansLines_ItsOwnExitCodeCounts()
    {
        // The guardian's lines share the pipe with the command's output; its status comes from a file the command cannot print.
        Assert.Equal(7, await FixApply.VerifyAsync("echo 'tplab-guardian: started 1'; echo 'tplab-guardian: exited 0'; exit 7", _folder, TextWriter.Null, CancellationToken.None));
        Assert.Equal(0, await FixApply.VerifyAsync("echo 'tplab-guardian: exited 3'", _folder, TextWriter.Null, CancellationToken.None));
    }

    [Fact]
    public async Task VerifyAsync_ControlBytesInItsOutput_EscapedGuardianLinesLeftOut()
    {
        var output = new StringWriter();
        Assert.Equal(0, await FixApply.VerifyAsync("printf 'red \\033[31mtext\\n'; echo 'tplab-guardian: forged'", _folder, output, CancellationToken.None));
        Assert.Contains("red \\x1b[31mtext", output.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain('\u001b', output.ToString());
        Assert.DoesNotContain("tplab-guardian", output.ToString(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new byte[] { 0x63, 0x61, 0x66, 0xE9, 0x0A }, "not UTF-8 (Latin-1")] // "café" in Latin-1
    [InlineData(new byte[] { 0xFF, 0xFE, 0x61, 0x00, 0x0A, 0x00 }, "is UTF-16")]
    public void CheckUtf8_AnotherEncoding_RefusedNoPatchNoWrite(byte[] bytes, string what)
    {
        var path = Make("a.cs", bytes);
        var e = Assert.Throws<TplabException>(() => FixFiles.CheckUtf8(new FileChange(path, "a.cs", "x", "y")));
        Assert.Equal(ExitCodes.OutputFailed, e.ExitCode);
        Assert.Contains(what, e.Message, StringComparison.Ordinal);
        Assert.Contains("nothing was written", e.Message, StringComparison.Ordinal);
        Assert.Equal(bytes, File.ReadAllBytes(path));
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static FixResult Result(string path) => new("test", Path.GetDirectoryName(path)!, [], [new FileChange(path, Path.GetFileName(path), "a\n", "b\n")]);

    private FixOptions Options(string verify) => new() { Path = _folder, Apply = true, Force = true, Verify = verify };

    private string Make(string name, byte[] bytes)
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllBytes(path, bytes);
        return path;
    }
}
