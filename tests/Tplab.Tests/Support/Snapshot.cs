using System.Runtime.CompilerServices;

namespace Tplab.Tests.Support;

/// <summary>
/// Snapshot testing by hand (Verify is not served here; Snapshooter stores JSON: docs/dependencies.md): compares text with a file under
/// tests/Tplab.Tests/Snapshots/ in the source tree; <c>TPLAB_UPDATE_SNAPSHOTS=1</c> writes the file instead.
/// </summary>
internal static class Snapshot
{
    public static void Match(string actual, string name, [CallerFilePath] string callerFile = "") => Match(actual, name, null, callerFile);

    /// <summary>
    /// Compares through <paramref name="canonical"/> when given (e.g. an .hlog's histograms decoded: equal counts may
    /// encode to other bytes), so the snapshot stays the real output while the comparison ignores what may differ.
    /// </summary>
    public static void Match(string actual, string name, Func<string, string>? canonical, [CallerFilePath] string callerFile = "")
    {
        var folder = Path.Combine(TestsRoot(callerFile), "Snapshots");
        var path = Path.Combine(folder, name);
        actual = actual.ReplaceLineEndings("\n");
        if (Environment.GetEnvironmentVariable("TPLAB_UPDATE_SNAPSHOTS") == "1")
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            File.WriteAllText(path, actual);
            return;
        }
        Assert.True(File.Exists(path), $"no snapshot {path}; run with TPLAB_UPDATE_SNAPSHOTS=1 to create it, then review it");
        var expected = File.ReadAllText(path).ReplaceLineEndings("\n");
        if (canonical is not null)
        {
            (expected, actual) = (canonical(expected), canonical(actual));
        }
        if (expected != actual)
        {
            File.WriteAllText(path + ".received", actual);
        }
        Assert.Equal(expected, actual);
    }

    // The source folder, found from the calling test file's path, so snapshots are read and written where they are reviewed.
    private static string TestsRoot(string callerFile)
    {
        var dir = Path.GetDirectoryName(callerFile);
        while (dir is not null && !File.Exists(Path.Combine(dir, "Tplab.Tests.csproj")))
        {
            dir = Path.GetDirectoryName(dir);
        }
        return dir ?? Path.Combine(AppContext.BaseDirectory);
    }
}
