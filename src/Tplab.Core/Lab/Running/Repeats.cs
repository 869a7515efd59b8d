namespace Tplab.Lab.Running;

/// <summary>The headline figures of one run of a scenario, kept for each run when <c>--repeat</c> runs it several times.</summary>
public sealed record RunFigures(
    int Run,
    ScenarioStatus Status,
    long Requests,
    long Failed,
    double? MeanMs,
    double? P50Ms,
    double? P99Ms,
    double? MaxMs,
    double? RequestsPerSecond,
    int? ThreadsPeak,
    int? Injections,
    double? PeakRssMb,
    double? CpuSeconds)
{
    /// <summary>The figures of <paramref name="r"/>, numbered <paramref name="run"/> (1-based).</summary>
    public static RunFigures Of(ScenarioResult r, int run)
    {
        var s = r.Load is { Summary.Requests: > 0 } l ? l.Summary : null;
        return new RunFigures(
            run, r.Status, s?.Requests ?? 0, s?.Failed ?? 0, s?.LatencyMs.Mean, s?.LatencyMs.P50, s?.LatencyMs.P99, s?.LatencyMs.Max,
            s?.ThroughputPerSecond, r.Timeline?.ThreadsPeak, r.Timeline?.Injections.Count, r.Cost?.PeakRssMb, r.Cost?.CpuSeconds);
    }
}

/// <summary>One figure over the repeated runs: the mean, the range (lowest and highest run) and the standard deviation.</summary>
public sealed record Spread(double Mean, double Min, double Max, double StdDev, int Runs)
{
    /// <summary>The spread of the values present; null when none is.</summary>
    public static Spread? Of(IEnumerable<double?> values)
    {
        var v = values.OfType<double>().ToList();
        if (v.Count == 0)
        {
            return null;
        }
        var mean = v.Average();
        var sd = v.Count > 1 ? Math.Sqrt(v.Sum(x => (x - mean) * (x - mean)) / (v.Count - 1)) : 0;
        return new Spread(mean, v.Min(), v.Max(), sd, v.Count);
    }
}

/// <summary>Folds the runs of a repeated scenario into one result (docs/lab.md, "--repeat").</summary>
internal static class Repeats
{
    /// <summary>
    /// The run with the median mean latency stands for the scenario (its requests, timeline and charts); every run's
    /// figures are kept in <see cref="ScenarioResult.Runs"/>, and the tables show their mean and range.
    /// </summary>
    public static ScenarioResult Combine(IReadOnlyList<ScenarioResult> runs)
    {
        if (runs.Count == 1)
        {
            return runs[0];
        }
        var figures = runs.Select((r, i) => RunFigures.Of(r, i + 1)).ToList();
        var measured = figures.Where(f => f.MeanMs is not null).OrderBy(f => f.MeanMs).ToList();
        var median = measured.Count > 0 ? measured[(measured.Count - 1) / 2].Run : 1;
        var representative = runs[median - 1];
        var status = runs.Any(r => r.Status == ScenarioStatus.Interrupted) ? ScenarioStatus.Interrupted
            : runs.All(r => r.Status == ScenarioStatus.Failed) ? ScenarioStatus.Failed
            : runs.FirstOrDefault(r => r.Status != ScenarioStatus.Completed)?.Status ?? ScenarioStatus.Completed;
        var notCompleted = figures.Where(f => f.Status != ScenarioStatus.Completed).Select(f => $"run {f.Run}: {runs[f.Run - 1].Error ?? f.Status.ToString()}").ToList();
        var named = representative.Culprits.Count > 0 ? representative : runs.FirstOrDefault(r => r.Culprits.Count > 0);
        return representative with
        {
            Status = status,
            Error = notCompleted.Count > 0 ? string.Join("; ", notCompleted) : representative.Error,
            Culprits = named?.Culprits ?? [],
            NoCulpritBecause = named is null ? representative.NoCulpritBecause : null,
            Run = median,
            Runs = figures,
        };
    }
}
