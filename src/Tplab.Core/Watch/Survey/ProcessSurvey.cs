using Tplab.Common;
using Tplab.Processes;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Survey;

/// <summary>One line of <c>tplab ps</c>: a .NET process and its pool over a short sample.</summary>
/// <param name="Verdict">healthy, starving, recovering, lock-contention, cpu-saturated; or "unknown" when the sample failed (see <see cref="Error"/>).</param>
public sealed record SurveyedProcess(int ProcessId, string Name, Version? RuntimeVersion, int? PoolThreads, long? QueueLength, string Verdict, string? Error);

/// <summary>
/// <c>tplab ps</c>: every .NET process this user can attach to (<see cref="ProcessFinder.DotNetProcesses"/>), each
/// watched for a short sample in parallel (one EventPipe session each, closed afterwards) for its pool threads, queue
/// and a one-word verdict.
/// </summary>
public static class ProcessSurvey
{
    /// <summary>Surveys every attachable .NET process, by ascending pid.</summary>
    public static async Task<IReadOnlyList<SurveyedProcess>> SurveyAsync(TimeSpan sample, CancellationToken cancellationToken = default)
    {
        if (sample < WatchOptions.MinInterval || sample > TimeSpan.FromMinutes(1))
        {
            throw TplabException.Usage($"--sample must be between {WatchOptions.MinInterval.TotalSeconds:0.##} s and 60 s, got {sample.TotalSeconds:0.###} s");
        }
        var surveys = ProcessFinder.DotNetProcesses().Select(pid => SurveyOneAsync(pid, sample, cancellationToken));
        return await Task.WhenAll(surveys).ConfigureAwait(false);
    }

    private static async Task<SurveyedProcess> SurveyOneAsync(int pid, TimeSpan sample, CancellationToken cancellationToken)
    {
        var name = ProcessFinder.AppName(pid);
        var version = RuntimeVersion.Of(pid);
        try
        {
            await using var watch = await ThreadPoolWatch.StartAsync(pid, new WatchOptions { Interval = WatchOptions.MinInterval, Delay = new() { Mode = Tplab.Watch.Delay.DelayMode.Off } }, cancellationToken).ConfigureAwait(false);
            await Task.WhenAny(Task.Delay(sample, cancellationToken), watch.ProcessGone).ConfigureAwait(false);
            var timeline = await watch.StopAsync().ConfigureAwait(false);
            var last = timeline.Samples.LastOrDefault(s => s.CountersAgeMs is not null);
            return last is null
                ? new SurveyedProcess(pid, name, version, null, null, "unknown", timeline.ProcessExited ? "exited" : "no counters in the sample")
                : new SurveyedProcess(pid, name, version, last.ThreadCount, last.QueueLength, timeline.Verdict.ToWord(), null);
        }
        catch (TplabException e)
        {
            return new SurveyedProcess(pid, name, version, null, null, "unknown", e.Message);
        }
    }
}
