using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Common;

/// <summary>
/// The one bounded reader of outside input: a regular file read up to its limit and no further, whatever its size
/// claims; a folder, a FIFO and a device refused at once in one line; a limit raised only by a whole number of MiB.
/// </summary>
[ParallelSafe]
public sealed class InputFileTests : IDisposable
{
    private static readonly InputLimit Small = new("a small thing", 1 << 10);

    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-input-file-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static TplabException Refused(Action read)
    {
        var error = Assert.Throws<TplabException>(read);
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.DoesNotContain('\n', error.Message);
        return error;
    }

    [Fact]
    public void ReadBytes_AtTheLimit_ReadsItAll()
    {
        var path = Path.Combine(_folder, "exact");
        File.WriteAllBytes(path, new byte[1 << 10]);

        Assert.Equal(1 << 10, InputFile.ReadBytes(path, "--x", Small).Length);
    }

    [Fact]
    public void ReadBytes_OneByteOver_NamesTheLimitAndHowToRaiseIt()
    {
        var path = Path.Combine(_folder, "over");
        File.WriteAllBytes(path, new byte[(1 << 10) + 1]);

        var error = Refused(() => InputFile.ReadBytes(path, "--x", Small));

        Assert.Equal($"--x {path}: larger than 1 KiB, the most tplab reads as a small thing (set {InputFile.RaiseVariable} to read more)", error.Message);
    }

    [Fact]
    public void ReadText_Folder_SaysFolderNotAccessDenied()
    {
        var error = Refused(() => InputFile.ReadText(_folder, "--from", Small));

        Assert.Equal($"--from {_folder}: is a folder, not a file", error.Message);
    }

    [Fact]
    public void ReadText_FifoWithNoWriter_IsRefusedWithoutWaiting()
    {
        var path = Path.Combine(_folder, "fifo");
        Fifo.Make(path);

        // Opening a FIFO with no writer blocks forever: the refusal must come before the open.
        Assert.Contains("is not a regular file", Refused(() => InputFile.ReadText(path, "--from", Small)).Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("/dev/zero")] // endless
    [InlineData("/dev/null")] // a device, empty
    public void ReadBytes_Device_IsRefused(string device)
    {
        Assert.Contains("is not a regular file", Refused(() => InputFile.ReadBytes(device, "--plan", Small)).Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("", "the path is empty")]
    [InlineData("no/such/file", "no such file")]
    [InlineData("a\0b", "no such file")] // a NUL byte: no CLR parameter name
    public void Open_PathThatNamesNoFile_OneLine(string path, string expected)
    {
        var error = Refused(() => InputFile.Open(path, "--trace"));

        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("Parameter", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(null, 64L << 20)]
    [InlineData("", 64L << 20)]
    [InlineData("128", 128L << 20)] // raised
    [InlineData("8", 64L << 20)] // never lowered
    [InlineData("1,5", 64L << 20)] // not a whole number: the default
    [InlineData("-5", 64L << 20)]
    [InlineData("99999999", 64L << 20)] // past what one array holds
    public void Raised_WholeMibAboveTheDefault_RaisesARaisableLimit(string? variable, long expected) =>
        Assert.Equal(expected, InputLimit.Body.Raised(variable));

    [Fact]
    public void Raised_LimitThatIsNotRaisable_StaysAtItsDefault() =>
        Assert.Equal(1L << 20, InputLimit.Plan.Raised("512"));
}
