using System.Diagnostics;

namespace Tplab.Tests.Support;

/// <summary>A process's descendants, read from /proc, and signals sent to one process only.</summary>
internal static class ProcessTree
{
    public static IReadOnlyList<int> Descendants(int root)
    {
        var parents = new Dictionary<int, int>();
        foreach (var dir in Directory.GetDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(dir), out var pid))
            {
                try
                {
                    var stat = File.ReadAllText(Path.Combine(dir, "stat"));
                    var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
                    parents[pid] = int.Parse(fields[1], System.Globalization.CultureInfo.InvariantCulture);
                }
                catch (IOException)
                {
                }
            }
        }
        var found = new List<int>();
        var frontier = new Queue<int>([root]);
        while (frontier.Count > 0)
        {
            var p = frontier.Dequeue();
            foreach (var child in parents.Where(kv => kv.Value == p).Select(kv => kv.Key))
            {
                found.Add(child);
                frontier.Enqueue(child);
            }
        }
        return found;
    }

    /// <summary>
    /// The signal that plays Ctrl+C here: INT, unless this process (and so every child) was started with SIGINT
    /// ignored — as a background job of a non-interactive shell is — then TERM, which tplab handles the same way.
    /// </summary>
    public static string Interrupt
    {
        get
        {
            var line = File.ReadLines("/proc/self/status").FirstOrDefault(l => l.StartsWith("SigIgn:", StringComparison.Ordinal));
            var mask = line is null ? 0 : Convert.ToUInt64(line["SigIgn:".Length..].Trim(), 16);
            return (mask & (1UL << (2 - 1))) != 0 ? "TERM" : "INT";
        }
    }

    /// <summary>Sends <paramref name="signal"/> (e.g. INT, KILL) to <paramref name="pid"/> alone, as a user's kill would.</summary>
    public static void Signal(int pid, string signal)
    {
        using var kill = Process.Start("kill", ["-" + signal, pid.ToString(System.Globalization.CultureInfo.InvariantCulture)])!;
        kill.WaitForExit();
    }
}
