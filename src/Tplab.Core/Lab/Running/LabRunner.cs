using System.Globalization;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Lab.Results;
using Tplab.Lab.Seeds;
using Tplab.Target;

namespace Tplab.Lab.Running;

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
        var folder = ResultsFolder.Create(options.ResultsRoot, options.Time);
        var seeds = SeedFigures.Load();
        var writer = new ResultsWriter(folder, options, seeds);
        observer.LabStarted(experiments, folder);

        var needsDb = experiments.Any(e => e.NeedsDatabase);
        var done = new List<ExperimentResult>();
        var skipped = new List<(string, string)>();
        await using var stack = await TargetStack.StartAsync(
            new TargetStackOptions { ConnectionString = options.ConnectionString, Database = needsDb }, ct).ConfigureAwait(false);
        var runner = new ScenarioRunner(stack, options, observer);
        var interrupted = false;
        foreach (var experiment in experiments)
        {
            if (experiment.NeedsDatabase && stack.DatabaseUnavailable is { } why)
            {
                skipped.Add((experiment.Name, why));
                observer.ExperimentSkipped(experiment, why);
                continue;
            }
            observer.ExperimentStarted(experiment);
            var results = new List<ScenarioResult>();
            foreach (var scenario in experiment.Scenarios)
            {
                observer.ScenarioStarted(scenario);
                ScenarioResult result;
                try
                {
                    result = await runner.RunAsync(scenario, ct).ConfigureAwait(false);
                }
                catch (Exception e) when (e is not OperationCanceledException and not TplabException { ExitCode: ExitCodes.OutputFailed })
                {
                    // One scenario's surprise (a target that crashed mid-capture, say) costs that scenario, not the run.
                    result = new ScenarioResult { Scenario = scenario, Status = ScenarioStatus.Failed, Error = e.Message.ReplaceLineEndings(" ") };
                }
                results.Add(result);
                writer.WriteScenario(result);
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
}

/// <summary>Creates <c>results/&lt;timestamp&gt;/</c>.</summary>
public static class ResultsFolder
{
    /// <summary>A new folder named by the UTC time, with a suffix if that second is taken.</summary>
    public static string Create(string root, TimeProvider time)
    {
        var stamp = time.GetUtcNow().ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
        try
        {
            var path = Path.Combine(root, stamp);
            for (var i = 2; Directory.Exists(path); i++)
            {
                path = Path.Combine(root, $"{stamp}-{i.ToString(CultureInfo.InvariantCulture)}");
            }
            return Directory.CreateDirectory(path).FullName;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"cannot create the results folder under '{root}': {e.Message}");
        }
    }
}
