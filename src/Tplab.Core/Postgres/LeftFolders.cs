namespace Tplab.Postgres;

/// <summary>
/// Deletes the folders of private servers whose guardian was killed before it could delete them (tplab and the
/// guardian both SIGKILLed: the kernel ends the server, but no process is left to remove its files). A folder is in
/// use while its <see cref="PrivatePostgres.LockFile"/> is locked: the guardian holds that lock, and every process it
/// started (initdb, the postmaster, its backends) inherits it, so the lock is free only once all of them are gone.
/// The same idea as otj-pg-embedded's cleanOldDataDirectories. A folder without the lock file (another tplab's, still
/// being made) or younger than <c>minimumAge</c> is left alone; an empty one that old (a guardian killed between deleting
/// its lock file and its folder) is removed, by a delete that fails if anything appeared in it meanwhile.
/// </summary>
internal static class LeftFolders
{
    /// <summary>Deletes the free folders under <paramref name="temp"/>; returns how many.</summary>
    public static int Sweep(string temp, TimeSpan minimumAge)
    {
        // Without flock, .NET's FileShare.None takes no lock, and a live folder would look free.
        if (OperatingSystem.IsWindows() || Environment.GetEnvironmentVariable("DOTNET_SYSTEM_IO_DISABLEFILELOCKING") is "1" or "true")
        {
            return 0;
        }
        var removed = 0;
        try
        {
            foreach (var dir in Directory.EnumerateDirectories(temp, PrivatePostgres.FolderPrefix + "*"))
            {
                // An empty folder is removed by a delete that fails if anything appeared in it meanwhile.
                Action? delete = EmptyAndOld(dir, minimumAge) ? () => Directory.Delete(dir, recursive: false)
                    : Free(dir, minimumAge) ? () => DeleteLockLast(dir)
                    : null;
                try
                {
                    delete?.Invoke();
                    removed += delete is null ? 0 : 1;
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException)
                {
                    // Another user's, being made or being deleted by another tplab: left as it is.
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }
        return removed;
    }

    /// <summary>
    /// Deletes a server's folder with its lock file last, as the guardian's own cleanup does: a process killed in the
    /// middle (tplab deleting the folder of a guardian that died, then killed itself) leaves a folder that can still
    /// be swept. A recursive delete goes in directory order and may take the lock file first.
    /// </summary>
    public static void DeleteLockLast(string dir)
    {
        var lockFile = Path.Combine(dir, PrivatePostgres.LockFile);
        foreach (var entry in Directory.EnumerateFileSystemEntries(dir).Where(e => e != lockFile).ToList())
        {
            if (Directory.Exists(entry) && new DirectoryInfo(entry).LinkTarget is null)
            {
                Directory.Delete(entry, recursive: true);
            }
            else
            {
                File.Delete(entry);
            }
        }
        File.Delete(lockFile);
        Directory.Delete(dir);
    }

    private static bool EmptyAndOld(string dir, TimeSpan minimumAge) =>
        new DirectoryInfo(dir) is { LinkTarget: null } info && DateTime.UtcNow - info.LastWriteTimeUtc >= minimumAge
        && !Directory.EnumerateFileSystemEntries(dir).Any();

    private static bool Free(string dir, TimeSpan minimumAge)
    {
        var lockFile = Path.Combine(dir, PrivatePostgres.LockFile);
        if (new DirectoryInfo(dir).LinkTarget is not null || !File.Exists(lockFile) || DateTime.UtcNow - File.GetLastWriteTimeUtc(lockFile) < minimumAge)
        {
            return false;
        }
        try
        {
            // flock(LOCK_EX | LOCK_NB) on Unix: it fails while the guardian or any server process holds the lock.
            using var probe = new FileStream(lockFile, FileMode.Open, FileAccess.ReadWrite, FileShare.None);
            return true;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }
}
