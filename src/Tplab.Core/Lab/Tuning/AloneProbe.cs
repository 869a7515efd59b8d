using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Load;
using Tplab.Launch;

namespace Tplab.Lab.Tuning;

/// <summary>
/// The time a request of the scenario takes when nothing queues: on a fresh process with the default pool, one request
/// to compile the code path, then <see cref="Requests"/> sent one at a time; the median. Little's law needs this
/// time, and a starving run cannot show it (its fastest request already waited for a thread).
/// </summary>
internal static class AloneProbe
{
    /// <summary>Requests measured one at a time, after the first.</summary>
    public const int Requests = 3;

    public static async Task<double?> MeasureSecondsAsync(Scenario scenario, IServiceLauncher launcher, CancellationToken ct)
    {
        var instance = await launcher.StartAsync(ThreadPoolSettings.Default, ct).ConfigureAwait(false);
        await using (instance.ConfigureAwait(false))
        {
            var options = LoadProfiles.ToOptions(scenario, instance) with
            {
                Concurrency = 1, Requests = Requests + 1, Loops = null, Duration = null, RampUp = TimeSpan.Zero, Think = null, Rate = null,
                KeepRecords = true,
            };
            var run = await LoadRunner.RunAsync(options, null, ct).ConfigureAwait(false);
            var alone = run.Records.OrderBy(r => r.Start).Skip(1).Where(r => r.Succeeded).Select(r => r.Latency.TotalSeconds).Order().ToList();
            return alone.Count == 0 ? null : alone[alone.Count / 2];
        }
    }
}
