using System.Globalization;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Load;
using Tplab.Launch;
using Tplab.Launch.Service;
using Tplab.Watch;

namespace Tplab.Lab.Tuning;

/// <summary>
/// <c>tplab tune</c>: runs the load on the default pool, estimates the minimum worker threads by Little's law,
/// verifies the estimate (doubling until a value meets the objective), then bisects on fresh processes for the least
/// minimum that meets it; finally tries each knob at the default minimum. Every trial is a fresh process.
/// </summary>
public static class TuneRunner
{
    /// <summary>Runs the search. Ctrl+C (<paramref name="ct"/>) stops it and returns what ran, marked interrupted.</summary>
    public static async Task<TuneResult> RunAsync(TuneOptions options, ITuneObserver observer, CancellationToken ct)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validated();
        if (options.Service is { Command: null } running)
        {
            throw TplabException.Usage($"tune starts the service fresh for each tried value: give service.command in the plan, not a running pid ({running.Describe()})");
        }
        options.Service?.CheckWorkingFolder();
        foreach (var (unfinished, reason) in ResultsFolder.ReportUnfinished(options.ResultsRoot))
        {
            observer.Noticed($"{unfinished} is unfinished: {reason}; what it holds is whole and kept");
        }
        var folder = ResultsFolder.Create(options.ResultsRoot, options.Time, "tune");
        TuneResult result;
        try
        {
            result = await RunInAsync(folder, options, observer, ct).ConfigureAwait(false);
        }
        catch (Exception e)
        {
            ResultsFolder.Finish(folder, unfinished: e.Message);
            throw;
        }
        ResultsFolder.Finish(folder);
        return result;
    }

    private static async Task<TuneResult> RunInAsync(string folder, TuneOptions options, ITuneObserver observer, CancellationToken ct)
    {
        await using var stack = options.Service is null
            ? await TargetStack.StartAsync(new TargetStackOptions { ConnectionString = options.ConnectionString, Database = options.Scenario.NeedsDatabase }, ct).ConfigureAwait(false)
            : null;
        if (options.Scenario.NeedsDatabase && stack?.DatabaseUnavailable is { } why)
        {
            throw new TplabException(ExitCodes.Environment, $"{options.Scenario.Variant} needs the database: {why}");
        }
        IServiceLauncher launcher = options.Service is { } service ? new UserServiceLauncher(service) : stack!;
        var defaultMin = Environment.ProcessorCount;
        // Every trial is written as it ends, marked interrupted until the search reaches its end: a tune killed
        // mid-search keeps the trials it ran.
        var search = new Search(options, launcher, observer, ct, trials => TuneResults.Write(
            new TuneResult(options, folder, defaultMin, trials, null, null, false, null, [], Interrupted: true)));
        var baseline = await search.TrialAsync(TrialPurpose.Baseline, null, null).ConfigureAwait(false);
        MinThreadsEstimate? estimate = null;
        int? recommended = null;
        int? highestFailing = null;
        if (baseline is { Meets: false } && !search.Halted)
        {
            var alone = await AloneProbe.MeasureSecondsAsync(options.Scenario, launcher, ct).ConfigureAwait(false);
            estimate = LittlesLaw.Estimate(options.Scenario.Load, baseline.Result, alone, defaultMin, options.MaxThreads);
            if (estimate is not null)
            {
                observer.Estimated(estimate);
            }
            (recommended, highestFailing) = await search.FindLeastAsync(defaultMin, estimate?.Threads ?? Math.Min(options.MaxThreads, defaultMin * 4)).ConfigureAwait(false);
        }
        foreach (var knob in baseline is { Meets: false } ? options.TryKnobs : [])
        {
            if (search.Halted)
            {
                break;
            }
            await search.TrialAsync(TrialPurpose.Knob, null, knob).ConfigureAwait(false);
        }
        var result = new TuneResult(
            options, folder, defaultMin, search.Trials, estimate, recommended, baseline?.Meets == true, highestFailing,
            baseline?.Result.Culprits ?? [], ct.IsCancellationRequested)
        {
            Stopped = search.Stopped?.Reason, StoppedWith = search.Stopped?.Code,
        };
        TuneResults.Write(result);
        return result;
    }

    /// <summary>The trials so far and the search over them.</summary>
    private sealed class Search(TuneOptions options, IServiceLauncher launcher, ITuneObserver observer, CancellationToken ct, Action<IReadOnlyList<TuneTrial>> saved)
    {
        private readonly List<TuneTrial> _trials = [];

        public IReadOnlyList<TuneTrial> Trials => _trials;

        /// <summary>Why the search stopped before its end, other than Ctrl+C: a trial's service could not start or died under the load.</summary>
        public (int Code, string Reason)? Stopped { get; private set; }

        /// <summary>Whether no further trial may run (Ctrl+C, or <see cref="Stopped"/>).</summary>
        public bool Halted => ct.IsCancellationRequested || Stopped is not null;

        /// <summary>Doubles from the estimate until a value meets the objective, then bisects down to the precision.</summary>
        public async Task<(int? Least, int? HighestFailing)> FindLeastAsync(int failing, int first)
        {
            int? meeting = null;
            var value = first;
            while (!Halted)
            {
                var t = await TrialAsync(meeting is null && _trials.Count == 1 ? TrialPurpose.Estimate : TrialPurpose.Search, value, null).ConfigureAwait(false);
                if (t is null)
                {
                    break;
                }
                if (t.Meets)
                {
                    meeting = value;
                    break;
                }
                failing = value;
                if (value >= options.MaxThreads)
                {
                    return (null, failing);
                }
                value = Math.Min(options.MaxThreads, value * 2);
            }
            while (meeting is int hi && hi - failing > Math.Max(1, (int)Math.Ceiling(hi * options.PrecisionPercent / 100)) && !Halted)
            {
                var mid = failing + (hi - failing) / 2;
                var t = await TrialAsync(TrialPurpose.Search, mid, null).ConfigureAwait(false);
                if (t is null)
                {
                    break;
                }
                if (t.Meets)
                {
                    meeting = mid;
                }
                else
                {
                    failing = mid;
                }
            }
            return (meeting, failing);
        }

        /// <summary>One fresh process with these settings and the scenario's load; null when Ctrl+C stopped it.</summary>
        public async Task<TuneTrial?> TrialAsync(TrialPurpose purpose, int? min, KeyValuePair<string, string>? knob)
        {
            var number = _trials.Count + 1;
            var knobText = knob is { } k ? $"{k.Key}={k.Value}" : null;
            observer.TrialStarted(number, purpose, min, knobText);
            var scenario = options.Scenario with
            {
                Id = min is int m ? string.Create(CultureInfo.InvariantCulture, $"min{m}") : knob is null ? "default" : "knob",
                ThreadPool = new ThreadPoolSettings { MinThreads = min, Knobs = knob is { } kk ? [kk] : [] },
            };
            // Diagnose only the default run: it names the culprits; later runs only need their figures.
            var lab = new LabOptions { Diagnose = purpose == TrialPurpose.Baseline, WatchInterval = options.WatchInterval, Time = options.Time };
            var runner = new ScenarioRunner(lab, new ProgressOnly(observer));
            ScenarioResult result;
            try
            {
                result = await runner.RunAsync(scenario, launcher, ct).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                return null;
            }
            catch (TplabException e) when (e.ExitCode != ExitCodes.OutputFailed)
            {
                result = new ScenarioResult { Scenario = scenario, Status = ScenarioStatus.Failed, Error = e.Message, FailedWith = e.ExitCode };
            }
            if (result.Status == ScenarioStatus.Interrupted)
            {
                return null;
            }
            var (meets, why, value) = Judge(result);
            var trial = new TuneTrial(number, purpose, min, knobText, meets, why, value, RunFigures.Of(result, number), result);
            _trials.Add(trial);
            saved(_trials);
            observer.TrialFinished(trial);
            if (result.FailedWith is int code)
            {
                // A service that did not start or died under the load says nothing about this minimum: judging it
                // failing would steer the search wrong. The search stops here, and says why.
                Stopped = (code, $"trial {number.ToString(CultureInfo.InvariantCulture)} ({(min is int m2 ? $"min {m2.ToString(CultureInfo.InvariantCulture)}" : knobText ?? "default")}): {result.Error}");
                return null;
            }
            return trial;
        }

        private (bool Meets, string Why, double? Value) Judge(ScenarioResult r)
        {
            var o = options.Objective;
            if (r.Status == ScenarioStatus.Failed || r.Load is not { Summary.Requests: > 0 } load)
            {
                return (false, r.Error ?? "no request ended", null);
            }
            var value = o.ValueMs(load.Summary.LatencyMs);
            var figure = $"{o.Figure} {DurationText.Format(TimeSpan.FromMilliseconds(Math.Round(value)))}";
            if (r.Status == ScenarioStatus.DeadlineReached)
            {
                return (false, $"stopped at the trial deadline ({DurationText.Format(r.Scenario.Deadline)}) with {figure} so far", value);
            }
            if (load.Summary.Failed > 0)
            {
                return (false, string.Create(CultureInfo.InvariantCulture, $"{load.Summary.Failed} of {load.Summary.Requests} requests failed; {figure}"), value);
            }
            return value < o.BoundMs ? (true, $"{figure} < {DurationText.Format(o.Bound)}", value) : (false, $"{figure} ≥ {DurationText.Format(o.Bound)}", value);
        }
    }

    /// <summary>Passes the scenario runner's progress to tune's observer; the lab's other events mean nothing here.</summary>
    private sealed class ProgressOnly(ITuneObserver observer) : ILabObserver
    {
        public void LabStarted(IReadOnlyList<Experiment> experiments, string folder)
        {
        }

        public void ExperimentSkipped(Experiment experiment, string reason)
        {
        }

        public void ExperimentStarted(Experiment experiment)
        {
        }

        public void ScenarioStarted(Scenario scenario)
        {
        }

        public void ScenarioProgress(Scenario scenario, LoadProgress progress, ThreadPoolSample? pool) => observer.TrialProgress(progress, pool);

        public void ScenarioFinished(ScenarioResult result)
        {
        }

        public void ExperimentFinished(ExperimentResult result)
        {
        }

        public void LabFinished(LabResult result)
        {
        }
    }
}
