using System.Globalization;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Lab.Results;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;
using Tplab.Launch;
using Tplab.Launch.Service;

namespace Tplab.Lab;

/// <summary>
/// The lab: runs the selected experiments scenario by scenario, each against a fresh target, with one
/// downstream and one private PostgreSQL shared by all; writes the results folder after every scenario so
/// nothing finished is lost, even if tplab is killed.
/// </summary>
public static class LabRunner
{
    /// <summary>Runs the lab. Ctrl+C (<paramref name="ct"/>) marks the running scenario interrupted and stops.</summary>
    public static async Task<LabResult> RunAsync(LabOptions options, ILabObserver observer, CancellationToken ct)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validated();
        var experiments = LabSelection.Select(options);
        foreach (var experiment in experiments)
        {
            experiment.Service?.CheckWorkingFolder();
        }
        foreach (var (unfinished, reason) in ResultsFolder.ReportUnfinished(options.ResultsRoot))
        {
            observer.Noticed($"{unfinished} is unfinished: {reason}; what it holds is whole and kept");
        }
        var folder = ResultsFolder.Create(options.ResultsRoot, options.Time);
        LabResult lab;
        try
        {
            lab = await RunInAsync(folder, experiments, options, observer, ct).ConfigureAwait(false);
        }
        catch (Exception e)
        {
            ResultsFolder.Finish(folder, unfinished: e.Message);
            throw;
        }
        ResultsFolder.Finish(folder);
        return lab;
    }

    private static async Task<LabResult> RunInAsync(string folder, IReadOnlyList<Experiment> experiments, LabOptions options, ILabObserver observer, CancellationToken ct)
    {
        var seeds = SeedFigures.Load();
        var writer = new ResultsWriter(folder, options, seeds);
        observer.LabStarted(experiments, folder);

        var needsDb = experiments.Any(e => e.NeedsDatabase);
        var done = new List<ExperimentResult>();
        var skipped = new List<(string, string)>();
        // The downstream and the database serve only tplab's own target; a plan of the user's service needs neither.
        await using var stack = experiments.Any(e => e.Service is null)
            ? await TargetStack.StartAsync(new TargetStackOptions { ConnectionString = options.ConnectionString, Database = needsDb }, ct).ConfigureAwait(false)
            : null;
        var runner = new ScenarioRunner(options, observer);
        var interrupted = false;
        foreach (var experiment in experiments)
        {
            IServiceLauncher launcher = experiment.Service is { } service ? new UserServiceLauncher(service) : stack!;
            if (experiment.NeedsDatabase && (stack?.DatabaseUnavailable ?? stack?.DatabaseLost) is { } why)
            {
                skipped.Add((experiment.Name, why));
                observer.ExperimentSkipped(experiment, why);
                continue;
            }
            observer.ExperimentStarted(experiment);
            var results = new List<ScenarioResult>();
            ScenarioResult? didNotStart = null;
            foreach (var scenario in experiment.Scenarios)
            {
                var runs = new List<ScenarioResult>();
                for (var run = 1; run <= options.Repeat; run++)
                {
                    observer.ScenarioStarted(scenario);
                    var one = scenario.NeedsDatabase && stack?.DatabaseLost is { } gone
                        ? new ScenarioResult { Scenario = scenario, Status = ScenarioStatus.Failed, Error = $"not run: {gone}", FailedWith = ExitCodes.ProcessExited }
                        : didNotStart is not null ? NotStarted(scenario, didNotStart)
                        : Interrupted(await RunOnceAsync(runner, scenario, launcher, ct).ConfigureAwait(false), ct);
                    // The user's service that could not start once will not start for the next scenario either: one
                    // start timeout, not one per scenario (the error names the first; the others say "not run").
                    if (didNotStart is null && experiment.Service is not null && one is { Status: ScenarioStatus.Failed, Load: null, FailedWith: ExitCodes.Environment })
                    {
                        didNotStart = one;
                    }
                    one = options.Repeat > 1 ? one with { Run = run } : one;
                    if (scenario.NeedsDatabase && stack?.DatabaseLost is { } lost && one.Status != ScenarioStatus.Failed)
                    {
                        // Requests that failed because the database died say nothing about the scenario.
                        one = one with { Status = ScenarioStatus.Failed, Error = $"{lost}: it stopped during the scenario; figures cover what ran", FailedWith = ExitCodes.ProcessExited };
                    }
                    writer.WriteScenarioFiles(one);
                    runs.Add(one);
                    if (one.Status == ScenarioStatus.Interrupted)
                    {
                        break;
                    }
                }
                var result = Repeats.Combine(runs);
                results.Add(result);
                writer.AddCharts(result);
                // After every scenario: a run killed now keeps this scenario's figures in summary.json, not only in its CSV.
                writer.WriteSummary(new LabResult(folder, [.. done, Lessons.Complete(experiment, results, seeds)], skipped, false), reportToo: false);
                observer.ScenarioFinished(result);
                if (result.Status == ScenarioStatus.Interrupted)
                {
                    interrupted = true;
                    break;
                }
            }
            var experimentResult = Lessons.Complete(experiment, results, seeds);
            done.Add(experimentResult);
            writer.WriteSummary(new LabResult(folder, done, skipped, interrupted));
            observer.ExperimentFinished(experimentResult);
            if (interrupted)
            {
                break;
            }
        }
        var lab = new LabResult(folder, done, skipped, interrupted);
        writer.WriteSummary(lab);
        observer.LabFinished(lab);
        return lab;
    }

    // A signal tplab received stops the run as interrupted: what failed meanwhile (a service or database stopped by
    // the same signal, a start cut short) failed because of it, not on its own.
    private static ScenarioResult Interrupted(ScenarioResult one, CancellationToken ct) =>
        ct.IsCancellationRequested && one.Status == ScenarioStatus.Failed
            ? one with { Status = ScenarioStatus.Interrupted, Error = "interrupted (Ctrl+C or SIGTERM); figures cover what ran", FailedWith = null }
            : one;

    private static ScenarioResult NotStarted(Scenario scenario, ScenarioResult first) => new()
    {
        Scenario = scenario, Status = ScenarioStatus.Failed, FailedWith = first.FailedWith,
        Error = $"not run: the service did not start for {first.Scenario.Id}",
    };

    private static async Task<ScenarioResult> RunOnceAsync(ScenarioRunner runner, Scenario scenario, IServiceLauncher launcher, CancellationToken ct)
    {
        try
        {
            return await runner.RunAsync(scenario, launcher, ct).ConfigureAwait(false);
        }
        catch (Exception e) when (e is not OperationCanceledException and not TplabException { ExitCode: ExitCodes.OutputFailed })
        {
            // One scenario's surprise (a target that crashed mid-capture, say) costs that scenario, not the run.
            return new ScenarioResult { Scenario = scenario, Status = ScenarioStatus.Failed, Error = e.Message.ReplaceLineEndings(" ") };
        }
    }
}
