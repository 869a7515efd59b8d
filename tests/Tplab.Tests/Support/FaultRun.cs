using System.Text.Json;
using Tplab.Lab.Running;
using Tplab.Processes;

namespace Tplab.Tests.Support;

/// <summary>
/// The checks every fault test makes once tplab has ended: none of its processes is left, and every file it left in
/// the results folder is whole (parses to its end), whatever stopped it.
/// </summary>
internal static class FaultRun
{
    /// <summary>Waits for <paramref name="run"/> to end and for every process it started to be gone.</summary>
    public static async Task<int> EndedWithoutOrphansAsync(ChildProcess run, IReadOnlyList<int> children)
    {
        // Exited completes once the last output lines are in (HasExited can be true a moment before they are).
        Assert.True(await Task.WhenAny(run.Exited, Task.Delay(TimeSpan.FromSeconds(60))) == run.Exited, "tplab did not end");
        Assert.True(await ProcessTable.EventuallyAsync(() => children.All(p => !ProcessTable.IsAlive(p)), TimeSpan.FromSeconds(30)),
            $"left behind: {string.Join(", ", children.Where(ProcessTable.IsAlive).Select(p => $"{p} {ProcessFiles.Name(p)}"))}");
        return run.ExitCode ?? -1;
    }

    /// <summary>Every visible file under <paramref name="folder"/> is whole: JSON parses, every JSONL line parses, CSV and HTML end where they should.</summary>
    public static void AssertWhole(string folder)
    {
        foreach (var file in Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories).Where(f => !Path.GetFileName(f).StartsWith('.')))
        {
            var text = File.ReadAllText(file);
            switch (Path.GetExtension(file))
            {
                case ".json":
                    using (JsonDocument.Parse(text))
                    {
                    }
                    break;
                case ".jsonl":
                    foreach (var line in text.Split('\n', StringSplitOptions.RemoveEmptyEntries))
                    {
                        using var _ = JsonDocument.Parse(line);
                    }
                    Assert.True(text.Length == 0 || text.EndsWith('\n'), $"{file} ends mid-line");
                    break;
                case ".csv":
                    Assert.True(text.EndsWith('\n'), $"{file} ends mid-line");
                    break;
                case ".html":
                    Assert.True(text.TrimEnd().EndsWith("</html>", StringComparison.OrdinalIgnoreCase), $"{file} is cut short");
                    break;
            }
        }
    }

    /// <summary>A plan whose service exits at once: a run or tune of it ends in seconds, after saying what it found in --results.</summary>
    public static string FailingPlan(string folder)
    {
        var path = Path.Combine(folder, "failing.yaml");
        File.WriteAllText(path, "name: failing\nservice: { command: 'exit 3', url: 'http://127.0.0.1:1/' }\nscenarios:\n  - { id: a, requests: [/], load: { concurrency: 1, requests: 1 } }\n");
        return path;
    }

    /// <summary>The one results folder tplab created under <paramref name="root"/>.</summary>
    public static string OnlyFolder(string root) => Assert.Single(Directory.GetDirectories(root));

    /// <summary>Whether the folder still carries the marker of a run that never reached its end.</summary>
    public static bool MarkedRunning(string folder) => File.Exists(Path.Combine(folder, ResultsFolder.RunningMarker));

    /// <summary>tplab's descendants whose command line holds <paramref name="text"/> (the target, PostgreSQL).</summary>
    public static IReadOnlyList<int> Children(ChildProcess run, string text) =>
        [.. ProcessTree.Descendants(run.Id).Intersect(ProcessTable.WithCommandLine(text))];
}
