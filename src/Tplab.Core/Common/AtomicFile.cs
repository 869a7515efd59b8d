namespace Tplab.Common;

/// <summary>Writes a file whole: to a temporary file beside it, then renamed over it, so a reader never sees half of it.</summary>
public static class AtomicFile
{
    /// <summary>Writes what <paramref name="write"/> writes to <paramref name="path"/>; exit 8 when it cannot.</summary>
    public static void Write(string path, Action<TextWriter> write)
    {
        ArgumentNullException.ThrowIfNull(write);
        var full = Path.GetFullPath(path);
        var temp = Path.Combine(Path.GetDirectoryName(full) ?? ".", $".{Path.GetFileName(full)}.{Guid.NewGuid():N}.tmp");
        try
        {
            using (var writer = new StreamWriter(temp))
            {
                write(writer);
            }
            File.Move(temp, full, overwrite: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            TryDelete(temp);
            throw new TplabException(ExitCodes.OutputFailed, $"could not write {path}: {e.Message}", e);
        }
    }

    /// <summary>Copies <paramref name="source"/> to <paramref name="path"/> whole; exit 8 when it cannot.</summary>
    public static void Copy(string source, string path)
    {
        var full = Path.GetFullPath(path);
        var temp = Path.Combine(Path.GetDirectoryName(full) ?? ".", $".{Path.GetFileName(full)}.{Guid.NewGuid():N}.tmp");
        try
        {
            File.Copy(source, temp);
            File.Move(temp, full, overwrite: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            TryDelete(temp);
            throw new TplabException(ExitCodes.OutputFailed, $"could not write {path}: {e.Message}", e);
        }
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }
    }
}
