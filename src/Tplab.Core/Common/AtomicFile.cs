using System.Globalization;
using System.Text;

namespace Tplab.Common;

/// <summary>
/// A file written whole: into a hidden temporary file beside it, then renamed over it by <see cref="Commit"/>. A
/// reader sees the old file or the new one, never half of one, and a run killed mid-write leaves the old file as
/// it was. Disposing without committing deletes the temporary file. Used for every file tplab writes whole.
/// </summary>
public sealed class AtomicFile : IDisposable
{
    private static readonly UTF8Encoding Utf8 = new(encoderShouldEmitUTF8Identifier: false);
    private readonly string? _temp;
    private bool _done;

    private AtomicFile(string path)
    {
        Path = System.IO.Path.GetFullPath(path);
        if (FileKind.IsSpecial(Path))
        {
            // /dev/null, /dev/stdout, a FIFO: written in place; a rename would replace the device with a file.
            Writer = new StreamWriter(new FileStream(Path, FileMode.Open, FileAccess.Write, FileShare.ReadWrite, 1 << 16), Utf8);
            return;
        }
        var folder = System.IO.Path.GetDirectoryName(Path)!;
        // Same folder, so the rename never crosses file systems and stays atomic.
        _temp = System.IO.Path.Combine(folder, string.Create(CultureInfo.InvariantCulture,
            $".{System.IO.Path.GetFileName(Path)}.{Environment.ProcessId}.{Guid.NewGuid():N}.tmp"));
        try
        {
            Writer = new StreamWriter(new FileStream(_temp, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 16), Utf8);
        }
        // The user named the file, not the temporary one: say what is wrong with theirs.
        catch (DirectoryNotFoundException)
        {
            throw new DirectoryNotFoundException($"the folder '{folder}' does not exist");
        }
        catch (UnauthorizedAccessException)
        {
            throw new UnauthorizedAccessException($"access to the folder '{folder}' is denied");
        }
        catch (IOException e)
        {
            throw new IOException(e.Message.Replace(_temp!, Path, StringComparison.Ordinal), e);
        }
    }

    /// <summary>The file this writes.</summary>
    public string Path { get; }

    /// <summary>Writes into the temporary file.</summary>
    public TextWriter Writer { get; }

    /// <summary>Opens the temporary file now (so an unwritable folder fails before any work); the file appears on <see cref="Commit"/>.</summary>
    public static AtomicFile Create(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        return Directory.Exists(path) ? throw new IOException($"'{path}' is a folder") : new AtomicFile(path);
    }

    /// <summary>
    /// Opens a file the user named with <paramref name="option"/> (<c>--output</c>) before any work, so a path that
    /// cannot be written (missing folder, no permission, a folder) fails at once: one line and exit 8, like every command.
    /// Fill it with <see cref="Finish"/>.
    /// </summary>
    public static AtomicFile OpenOutput(string path, string option)
    {
        try
        {
            return Create(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"cannot write {option} {path}: {e.Message}", e);
        }
    }

    /// <summary>Writes the content with <paramref name="write"/> and commits; a failure (a full disk) is one line and exit 8, and the old file stays.</summary>
    public void Finish(Action<TextWriter> write)
    {
        ArgumentNullException.ThrowIfNull(write);
        try
        {
            write(Writer);
            Commit();
        }
        catch (IOException e)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"cannot write {Path}: {e.Message}", e);
        }
    }

    /// <summary>Writes <paramref name="path"/> whole with <paramref name="write"/>; when it throws, the old file stays.</summary>
    public static void Write(string path, Action<TextWriter> write)
    {
        ArgumentNullException.ThrowIfNull(write);
        using var file = Create(path);
        write(file.Writer);
        file.Commit();
    }

    /// <summary>Writes <paramref name="text"/> as the whole of <paramref name="path"/>.</summary>
    public static void WriteAllText(string path, string text) => Write(path, w => w.Write(text));

    /// <summary>Writes <paramref name="bytes"/> as the whole of <paramref name="path"/>, as they are.</summary>
    public static void WriteAllBytes(string path, byte[] bytes)
    {
        ArgumentNullException.ThrowIfNull(bytes);
        // The writer has written nothing: its stream takes the bytes unencoded.
        Write(path, w => ((StreamWriter)w).BaseStream.Write(bytes));
    }

    /// <summary>Copies <paramref name="source"/> to <paramref name="path"/> whole; when it cannot, one line and exit 8 (output failed).</summary>
    public static void Copy(string source, string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        var full = System.IO.Path.GetFullPath(path);
        var temp = System.IO.Path.Combine(System.IO.Path.GetDirectoryName(full) ?? ".",
            string.Create(CultureInfo.InvariantCulture, $".{System.IO.Path.GetFileName(full)}.{Environment.ProcessId}.{Guid.NewGuid():N}.tmp"));
        try
        {
            File.Copy(source, temp);
            File.Move(temp, full, overwrite: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            try
            {
                File.Delete(temp);
            }
            catch (Exception e2) when (e2 is IOException or UnauthorizedAccessException)
            {
                // The copy failed already; a hidden .tmp beside the target is all that can be left.
            }
            throw new TplabException(ExitCodes.OutputFailed, $"could not write {path}: {e.Message}", e);
        }
    }

    /// <summary>
    /// Gives the file <paramref name="mode"/> before it appears (set on the temporary file, so no reader ever sees the
    /// new content with the default mode: a 600 file never becomes world-readable, not even for a moment).
    /// </summary>
    [System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
    public void SetMode(UnixFileMode mode)
    {
        ObjectDisposedException.ThrowIf(_done, this);
        if (_temp is not null)
        {
            File.SetUnixFileMode(_temp, mode);
        }
    }

    /// <summary>Flushes, closes and renames the temporary file over <see cref="Path"/>.</summary>
    public void Commit()
    {
        ObjectDisposedException.ThrowIf(_done, this);
        Writer.Dispose();
        _done = true;
        if (_temp is null)
        {
            return;
        }
        try
        {
            File.Move(_temp, Path, overwrite: true);
        }
        catch
        {
            TryDelete();
            throw;
        }
    }

    /// <summary>Deletes the temporary file unless committed.</summary>
    public void Dispose()
    {
        if (_done)
        {
            return;
        }
        _done = true;
        try
        {
            Writer.Dispose();
        }
        catch (IOException)
        {
            // A full disk fails the final flush too; the file is being thrown away anyway.
        }
        TryDelete();
    }

    private void TryDelete()
    {
        if (_temp is null)
        {
            return;
        }
        try
        {
            File.Delete(_temp);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Nothing more to do: a hidden .tmp file is left, the target file is intact.
        }
    }
}
