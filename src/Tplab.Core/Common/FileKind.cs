using System.Runtime.InteropServices;

namespace Tplab.Common;

/// <summary>
/// Whether a path names a device, a pipe or a socket (<c>/dev/null</c>, <c>/dev/stdout</c>, a FIFO, <c>&gt;(gzip)</c>)
/// rather than a regular file: those are written in place, never replaced by a renamed temporary file (which, as root,
/// would swap /dev/null for a regular file). .NET has no API for a file's type on Unix, so this asks stat(2).
/// </summary>
public static class FileKind
{
    /// <summary>True when <paramref name="path"/> exists and is a character or block device, a FIFO or a socket.</summary>
    public static bool IsSpecial(string path)
    {
        // st_mode's offset in struct stat on Linux: 24 on x86-64, 16 on arm64. Elsewhere: treat as regular.
        var offset = RuntimeInformation.ProcessArchitecture switch
        {
            Architecture.X64 => 24,
            Architecture.Arm64 => 16,
            _ => -1,
        };
        if (offset < 0 || !OperatingSystem.IsLinux())
        {
            return false;
        }
        var buffer = new byte[256];
        try
        {
            if (Stat(path, buffer) != 0)
            {
                return false;
            }
        }
        catch (EntryPointNotFoundException)
        {
            return false; // a libc before 2.33 exports no stat symbol: keep the safe default
        }
        var type = BitConverter.ToUInt32(buffer, offset) & 0xF000;
        return type is 0x2000 or 0x6000 or 0x1000 or 0xC000; // S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK
    }

    /// <summary>
    /// The file's device and inode (stat follows symlinks), so two names of one file, by a symlink, a hard link or
    /// <c>./</c>, compare equal; null when it does not exist or this is not Linux.
    /// </summary>
    public static (ulong Device, ulong Inode)? Identity(string path)
    {
        if (!OperatingSystem.IsLinux() || RuntimeInformation.ProcessArchitecture is not (Architecture.X64 or Architecture.Arm64))
        {
            return null;
        }
        var buffer = new byte[256];
        try
        {
            // st_dev at 0 and st_ino at 8 on both x86-64 and arm64.
            return Stat(path, buffer) == 0 ? (BitConverter.ToUInt64(buffer, 0), BitConverter.ToUInt64(buffer, 8)) : null;
        }
        catch (EntryPointNotFoundException)
        {
            return null;
        }
    }

    [DllImport("libc", EntryPoint = "stat", CharSet = CharSet.Ansi, BestFitMapping = false, ThrowOnUnmappableChar = true)]
    [DefaultDllImportSearchPaths(DllImportSearchPath.SafeDirectories)]
    private static extern int Stat(string path, byte[] buffer);
}
