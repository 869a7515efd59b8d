using System.Diagnostics;
using System.Globalization;

namespace Tplab.Tests.Support;

/// <summary>
/// A tmpfs of a few megabytes mounted for one test (root only), filled so that only a given number of bytes is left:
/// the full disk users meet, without filling the machine's own. Unmounted on dispose.
/// </summary>
internal sealed class SmallDisk : IDisposable
{
    private const long Size = 8 << 20;

    private SmallDisk(string path) => Path = path;

    /// <summary>The mount point.</summary>
    public string Path { get; }

    /// <summary>Bytes a file can still take (whole pages).</summary>
    public long Free => new DriveInfo(Path).AvailableFreeSpace;

    public static SmallDisk Mount()
    {
        var path = Directory.CreateTempSubdirectory("tplab-smalldisk-").FullName;
        Run("mount", "-t", "tmpfs", "-o", string.Create(CultureInfo.InvariantCulture, $"size={Size}"), "tmpfs", path);
        return new SmallDisk(path);
    }

    /// <summary>Fills the disk until <paramref name="bytes"/> are left (rounded down to whole pages by the file system).</summary>
    public void Leave(long bytes)
    {
        var filler = System.IO.Path.Combine(Path, ".filler");
        using var stream = new FileStream(filler, FileMode.Create);
        stream.SetLength(0);
        var chunk = new byte[1 << 16];
        var toWrite = Free - bytes;
        while (toWrite > 0)
        {
            var n = (int)Math.Min(chunk.Length, toWrite);
            stream.Write(chunk, 0, n);
            toWrite -= n;
        }
        stream.Flush(flushToDisk: true);
    }

    public void Dispose()
    {
        Run("umount", "-l", Path);
        Directory.Delete(Path, recursive: true);
    }

    private static void Run(string tool, params string[] args)
    {
        using var process = Process.Start(new ProcessStartInfo(tool, args) { RedirectStandardError = true })!;
        var error = process.StandardError.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{tool} {string.Join(' ', args)}: {error}");
        }
    }
}
