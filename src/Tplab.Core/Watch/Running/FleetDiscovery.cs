using System.Globalization;
using Tplab.Processes;

namespace Tplab.Watch.Running;

/// <summary>
/// <c>tplab watch -n NAME --all</c>: looks for .NET processes of that name every <see cref="Interval"/> and adds each
/// new one to the fleet, saying so; says once when there is none yet.
/// </summary>
internal static class FleetDiscovery
{
    /// <summary>How often <c>--all</c> looks for new processes of the name.</summary>
    public static readonly TimeSpan Interval = TimeSpan.FromSeconds(2);

    /// <summary>Looks for processes called <paramref name="name"/> until cancelled, and watches each new one.</summary>
    public static async Task RunAsync(WatchFleet fleet, string name, CancellationToken ct)
    {
        var said = false;
        while (!ct.IsCancellationRequested)
        {
            var found = ProcessFinder.AllByName(name);
            foreach (var pid in found.Where(p => !fleet.Knows(p)).ToList())
            {
                if (await fleet.AddAsync(pid, ct).ConfigureAwait(false) is { } why)
                {
                    fleet.Notice($"cannot watch pid {Pid(pid)}: {why.Message}; the others go on");
                }
                if (fleet.IsWatching(pid) && fleet.First?.ProcessId != pid)
                {
                    fleet.Notice($"process {Pid(pid)} ({name}) started; watching it too");
                }
            }
            if (found.Count == 0 && !said)
            {
                fleet.Notice($"no .NET process named '{name}' now; waiting for one (every {Interval.TotalSeconds.ToString("0", CultureInfo.InvariantCulture)} s)");
            }
            said = found.Count == 0;
            try
            {
                await Task.Delay(Interval, ct).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    private static string Pid(int pid) => pid.ToString(CultureInfo.InvariantCulture);
}
