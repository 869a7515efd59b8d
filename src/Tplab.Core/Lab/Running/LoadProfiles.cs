using Tplab.Lab.Experiments;
using Tplab.Load;
using Tplab.Launch;

namespace Tplab.Lab.Running;

/// <summary>Maps a scenario's load profile (the seeds' terms) to the load generator's options.</summary>
internal static class LoadProfiles
{
    public static LoadOptions ToOptions(Scenario scenario, IServiceInstance target)
    {
        var p = scenario.Load;
        var targets = scenario.Requests.Select(q => q.ToTemplate(target.BaseAddress)).ToList();
        return new LoadOptions
        {
            Url = targets.Count > 0 ? targets[0].Url : target.Url(scenario.PathAndQuery),
            Targets = targets,
            Concurrency = p.Model == LoadModel.Closed ? p.Concurrency : 1,
            Requests = p.Requests,
            Loops = p.Loops,
            RampUp = p.RampUp,
            Duration = p.Duration,
            Think = p.ThinkMax > TimeSpan.Zero ? new ThinkTime(p.ThinkMin, p.ThinkMax) : null,
            Rate = p.Model == LoadModel.Open ? p.Rate : null,
            Timeout = p.Timeout,
            KeepRecords = true,
            InterruptGrace = TimeSpan.FromSeconds(2),
        };
    }
}
