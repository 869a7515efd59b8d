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

    /// <summary>
    /// Like <see cref="Match"/> for an output that holds one JSON document (perhaps between marker lines, as crank's):
    /// the JSON is compared parsed, so escaping and field order may change but no value may; the text around it byte for byte.
    /// </summary>
    public static void MatchJson(string actual, string name, [CallerFilePath] string callerFile = "")
    {
        var path = Path.Combine(TestsRoot(callerFile), "Snapshots", name);
        if (Environment.GetEnvironmentVariable("TPLAB_UPDATE_SNAPSHOTS") == "1" || !File.Exists(path))
        {
            Match(actual, name, callerFile);
            return;
        }
        var expected = File.ReadAllText(path).ReplaceLineEndings("\n");
        actual = actual.ReplaceLineEndings("\n");
        var (before, json, after) = Split(expected);
        var (actualBefore, actualJson, actualAfter) = Split(actual);
        if (expected != actual)
        {
            File.WriteAllText(path + ".received", actual);
        }
        Assert.Equal(before, actualBefore);
        JsonAssert.Equal(json, actualJson);
        Assert.Equal(after.Trim(), actualAfter.Trim());
    }

    private static (string Before, string Json, string After) Split(string text)
    {
        var start = text.IndexOf('{', StringComparison.Ordinal);
        var end = text.LastIndexOf('}');
        return start < 0 || end < start ? (text, "null", "") : (text[..start], text[start..(end + 1)], text[(end + 1)..]);
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
