namespace Tplab.Common.Output;

/// <summary>
/// Where a command's one document goes: a file, written whole (<see cref="AtomicFile"/>), or stdout. The file is opened
/// by <see cref="Open"/> before the work, so a path that cannot be written fails at once (exit 8, one line naming the path
/// the user gave), never after the work; a failure while writing (a full disk) is exit 8 too, and the old file stays.
/// </summary>
public sealed class OutputFile : IDisposable
{
    private readonly AtomicFile? _file;
    private readonly TextWriter _stdout;

    private OutputFile(AtomicFile? file, TextWriter stdout)
    {
        _file = file;
        _stdout = stdout;
    }

    /// <summary>Opens <paramref name="path"/> now, or stands for <paramref name="stdout"/> when the path is null or "-".</summary>
    public static OutputFile Open(string? path, TextWriter stdout)
    {
        ArgumentNullException.ThrowIfNull(stdout);
        return new OutputFile(path is null or "-" ? null : AtomicFile.OpenOutput(path, "--output"), stdout);
    }

    /// <summary>Writes the document with <paramref name="write"/>; a file appears whole when it is done.</summary>
    public void Write(Action<TextWriter> write)
    {
        ArgumentNullException.ThrowIfNull(write);
        if (_file is null)
        {
            write(_stdout);
            return;
        }
        _file.Finish(write);
    }

    /// <summary>Deletes the temporary file of a document never written.</summary>
    public void Dispose() => _file?.Dispose();
}
