namespace Tplab.Common.Output;

/// <summary>Where a command's one document goes: a file, written whole, or stdout.</summary>
public static class OutputFile
{
    /// <summary>
    /// Writes with <paramref name="write"/> to <paramref name="path"/> whole (<see cref="AtomicFile"/>: the old file stays
    /// when writing fails), or to <paramref name="stdout"/> when the path is null or "-". A file that cannot be written is
    /// an output error (exit 8) naming the path the user gave.
    /// </summary>
    public static void Write(string? path, TextWriter stdout, Action<TextWriter> write)
    {
        ArgumentNullException.ThrowIfNull(stdout);
        ArgumentNullException.ThrowIfNull(write);
        if (path is null or "-")
        {
            write(stdout);
            return;
        }
        try
        {
            AtomicFile.Write(path, write);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"could not write {path}: {e.Message}", e);
        }
    }
}
