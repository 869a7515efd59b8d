namespace Tplab.Tests.Support;

/// <summary>What runs on this machine, read from /proc.</summary>
internal static class ProcessTable
{
    public static bool IsAlive(int pid) => Directory.Exists($"/proc/{pid}") && !IsZombie(pid);

    /// <summary>Processes whose command line contains <paramref name="text"/>.</summary>
    public static IReadOnlyList<int> WithCommandLine(string text)
    {
        var found = new List<int>();
        foreach (var dir in Directory.GetDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(dir), out var pid) || pid == Environment.ProcessId)
            {
                continue;
            }
            try
            {
                var cmdline = File.ReadAllText(Path.Combine(dir, "cmdline")).Replace('\0', ' ');
                if (cmdline.Contains(text, StringComparison.Ordinal) && !IsZombie(pid))
                {
                    found.Add(pid);
                }
            }
            catch (IOException)
            {
            }
            catch (UnauthorizedAccessException)
            {
            }
        }
        return found;
    }

    /// <summary>Polls until <paramref name="condition"/> holds or <paramref name="timeout"/> passes.</summary>
    public static async Task<bool> EventuallyAsync(Func<bool> condition, TimeSpan timeout)
    {
        var end = DateTime.UtcNow + timeout;
        while (DateTime.UtcNow < end)
        {
            if (condition())
            {
                return true;
            }
            await Task.Delay(100);
        }
        return condition();
    }

    private static bool IsZombie(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            var afterName = stat[(stat.LastIndexOf(')') + 2)..];
            return afterName.StartsWith('Z');
        }
        catch (IOException)
        {
            return true;
        }
    }
}
