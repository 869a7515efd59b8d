using System.Text;
using Tplab.Common;
using Tplab.Scan.Fix;

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
        Assert.Equal(3, await FixFiles.VerifyAsync("echo checking; exit 3", _folder, output, CancellationToken.None));
        Assert.Contains("checking", output.ToString(), StringComparison.Ordinal);
        Assert.Equal(0, await FixFiles.VerifyAsync("true", _folder, TextWriter.Null, CancellationToken.None));
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private string Make(string name, byte[] bytes)
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllBytes(path, bytes);
        return path;
    }
}
