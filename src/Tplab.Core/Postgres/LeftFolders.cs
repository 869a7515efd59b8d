namespace Tplab.Postgres;

/// <summary>
/// Deletes the folders of private servers whose guardian was killed before it could delete them (tplab and the
/// guardian both SIGKILLed: the kernel ends the server, but no process is left to remove its files). A folder is in
/// use while its <see cref="PrivatePostgres.LockFile"/> is locked: the guardian holds that lock, and every process it
/// started (initdb, the postmaster, its backends) inherits it, so the lock is free only once all of them are gone.
/// The same idea as otj-pg-embedded's cleanOldDataDirectories. A folder without the lock file (another tplab's, still
/// being made) or younger than <c>minimumAge</c> is left alone.
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
                if (Free(dir, minimumAge))
                {
                    try
                    {
                        Directory.Delete(dir, recursive: true);
                        removed++;
                    }
                    catch (Exception e) when (e is IOException or UnauthorizedAccessException)
                    {
                        // Another user's, or being deleted by another tplab: left as it is.
                    }
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }
        return removed;
    }

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
