using System.Globalization;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Lab.Running;

/// <summary>
/// <c>results/&lt;timestamp&gt;/</c> of a run or a tune, and whether it finished. While tplab writes into it, the folder
/// holds <see cref="RunningMarker"/> naming tplab's process; tplab removes it when it ends, however it ends, except
/// when it is killed outright (SIGKILL, a crash, the machine stopping). A marker whose process is gone therefore means
/// an unfinished folder: what it holds is whole (every file is written whole) but the run did not reach its end.
/// </summary>
public static class ResultsFolder
{
    /// <summary>The marker of a folder being written: <c>pid=N start=TICKS command=run</c>.</summary>
    public const string RunningMarker = ".tplab-running";

    /// <summary>A running marker whose run was found dead and reported once; compare still reads it.</summary>
    public const string UnfinishedMarker = ".tplab-unfinished";

    /// <summary>A new folder named by the UTC time (a suffix if that second is taken), marked as being written by this process.</summary>
    public static string Create(string root, TimeProvider time, string command = "run")
    {
        ArgumentNullException.ThrowIfNull(time);
        var stamp = time.GetUtcNow().ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
        try
        {
            var path = Path.Combine(root, stamp);
            for (var i = 2; Directory.Exists(path); i++)
            {
                path = Path.Combine(root, $"{stamp}-{i.ToString(CultureInfo.InvariantCulture)}");
            }
            var folder = Directory.CreateDirectory(path).FullName;
            var self = Environment.ProcessId;
            File.WriteAllText(Path.Combine(folder, RunningMarker),
                string.Create(CultureInfo.InvariantCulture, $"pid={self} start={ProcessFiles.StartTicks(self)} command={command}\n"));
            return folder;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"cannot create the results folder under '{root}': {e.Message}");
        }
    }

    /// <summary>
    /// Marks the folder finished (tplab reached its end: done, failed or interrupted, as summary.json says), or, with
    /// <paramref name="unfinished"/>, unfinished for that reason (an error stopped the run before its end); removes
    /// the folder when nothing was written into it.
    /// </summary>
    public static void Finish(string folder, string? unfinished = null)
    {
        try
        {
            if (unfinished is not null && Directory.EnumerateFileSystemEntries(folder).Skip(1).Any())
            {
                // A rename works on a full disk; the reason is a courtesy on top.
                File.Move(Path.Combine(folder, RunningMarker), Path.Combine(folder, UnfinishedMarker), overwrite: true);
                TryWrite(Path.Combine(folder, UnfinishedMarker), $"its run stopped before its end: {unfinished.ReplaceLineEndings(" ")}\n");
                return;
            }
            File.Delete(Path.Combine(folder, RunningMarker));
            if (Directory.Exists(folder) && !Directory.EnumerateFileSystemEntries(folder).Any())
            {
                // A run that wrote nothing (its service never started, say) leaves no empty folder to puzzle over.
                Directory.Delete(folder);
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The marker stays: the folder then reads as unfinished, which is what it is if tplab cannot even delete a file.
        }
    }

    /// <summary>Why <paramref name="folder"/> is unfinished, in words for a sentence; null when it finished or is still being written.</summary>
    public static string? Unfinished(string folder)
    {
        var running = Path.Combine(folder, RunningMarker);
        if (File.Exists(Path.Combine(folder, UnfinishedMarker)))
        {
            var why = TryRead(Path.Combine(folder, UnfinishedMarker))?.Trim();
            return string.IsNullOrEmpty(why) ? "its run stopped before its end (tplab was killed, or the machine stopped)" : why;
        }
        if (!File.Exists(running))
        {
            return null;
        }
        var (pid, start) = ReadMarker(running);
        return pid is int p && ProcessFiles.IsAlive(p) && (start is null || ProcessFiles.StartTicks(p) == start)
            ? null
            : $"its run (tplab, pid {pid?.ToString(CultureInfo.InvariantCulture) ?? "?"}) stopped before its end (killed, or the machine stopped)";
    }

    /// <summary>
    /// The folders under <paramref name="root"/> that a killed run left unfinished and no one has reported yet, each with
    /// the reason; each is then marked <see cref="UnfinishedMarker"/> so the next run does not report it again.
    /// </summary>
    public static IReadOnlyList<(string Folder, string Reason)> ReportUnfinished(string root)
    {
        var found = new List<(string, string)>();
        try
        {
            if (!Directory.Exists(root))
            {
                return found;
            }
            foreach (var folder in Directory.EnumerateDirectories(root).Order(StringComparer.Ordinal))
            {
                if (File.Exists(Path.Combine(folder, RunningMarker)) && Unfinished(folder) is { } reason)
                {
                    File.Move(Path.Combine(folder, RunningMarker), Path.Combine(folder, UnfinishedMarker), overwrite: true);
                    found.Add((folder, reason));
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Looking back is a courtesy; a folder that cannot be read or marked is left as it is.
        }
        return found;
    }

    private static void TryWrite(string path, string text)
    {
        try
        {
            File.WriteAllText(path, text);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The marker's presence says enough.
        }
    }

    private static string? TryRead(string path)
    {
        try
        {
            return File.Exists(path) ? InputFile.ReadText(path, "the marker", InputLimit.Marker) : null;
        }
        catch (TplabException)
        {
            return null;
        }
    }

    private static (int? Pid, ulong? Start) ReadMarker(string path)
    {
        try
        {
            int? pid = null;
            ulong? start = null;
            foreach (var field in InputFile.ReadText(path, "the marker", InputLimit.Marker).Split(' ', '\n'))
            {
                var parts = field.Split('=', 2);
                if (parts is ["pid", var p] && int.TryParse(p, NumberStyles.None, CultureInfo.InvariantCulture, out var id))
                {
                    pid = id;
                }
                else if (parts is ["start", var s] && ulong.TryParse(s, NumberStyles.None, CultureInfo.InvariantCulture, out var ticks))
                {
                    start = ticks;
                }
            }
            return (pid, start);
        }
        catch (TplabException)
        {
            return (null, null);
        }
    }
}
