using System.CommandLine;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Lab.Plans;
using Tplab.Lab.Tuning;
using Tplab.Load;
using Tplab.Reports.Terminal;
using Tplab.Launch;

namespace Tplab.Cli.Commands;

/// <summary><c>tplab tune</c>: the least minimum worker threads that meets an objective, verified on fresh processes, with its cost.</summary>
internal static class TuneCommand
{
    public static Command Create()
    {
        var slo = new Option<string>("--slo") { Description = "The objective, FIGURE<DURATION, e.g. 'p99<1.2s' (mean, p50, p90, p95, p99, p999, max); every request must also succeed", Required = true };
        var variant = new Option<string?>("--variant") { Description = "Tune tplab's target on this variant (e.g. sleep, delay)" };
        var waitMs = new Option<int>("--wait-ms") { Description = "The variant's wait (?ms=)", DefaultValueFactory = _ => 1000 };
        var concurrency = new Option<int>("--concurrency", "-c") { Description = "Closed loop: users", DefaultValueFactory = _ => 1 };
        var requests = new Option<int?>("--requests", "-n") { Description = "Closed loop: total requests" };
        var duration = new Option<string?>("--duration") { Description = "How long each trial sends (e.g. 10s)" };
        var rate = new Option<double?>("--rate") { Description = "Open loop: requests per second (with --duration)" };
        var plan = new Option<string?>("--plan") { Description = "A plan file naming your service (docs/lab.md); with --scenario" };
        var scenarioId = new Option<string?>("--scenario") { Description = "The plan's scenario whose requests and load are replayed" };
        var maxThreads = new Option<int>("--max-threads") { Description = "Highest minimum to try", DefaultValueFactory = _ => 2000 };
        var precision = new Option<double>("--precision") { Description = "Stop when the failing and meeting values are this close, in percent", DefaultValueFactory = _ => 5 };
        var tryKnob = new Option<string[]>("--try-knob") { Description = "A knob NAME=VALUE tried at the default minimum (repeatable; default System.Threading.ThreadPool.HillClimbing.Disable=true; 'none' for none)" };
        var trialDeadline = new Option<string>("--trial-deadline") { Description = "Longest one trial may run (a starving default run is cut here and counts as failing)", DefaultValueFactory = _ => "2m" };
        var results = new Option<string>("--results") { Description = "Folder for the results folder <timestamp>/ (tune.json, tune.html)", DefaultValueFactory = _ => "results" };
        var format = new Option<string>("--format") { Description = "text or json (json on stdout; progress on stderr)", DefaultValueFactory = _ => "text" };
        format.AcceptOnlyFromAmong("text", "json");
        var pg = new Option<string?>("--pg") { Description = "Npgsql connection string for the db variants; default $TPLAB_PG, else a private PostgreSQL" };
        var command = new Command("tune", "Find the least minimum worker threads that meets an objective, verified on fresh processes, with its cost and settings to paste")
        {
            slo, variant, waitMs, concurrency, requests, duration, rate, plan, scenarioId, maxThreads, precision, tryKnob, trialDeadline, results, format, pg,
        };
        command.SetAction(async (r, ct) =>
        {
            var deadline = DurationText.Parse(r.GetValue(trialDeadline)!, "--trial-deadline");
            Scenario scenario;
            Launch.Service.ServiceDefinition? service = null;
            if (r.GetValue(plan) is { } planPath)
            {
                var id = r.GetValue(scenarioId) ?? throw TplabException.Usage("--plan needs --scenario ID: the scenario to tune");
                var experiment = PlanReader.Read(planPath);
                scenario = experiment.Scenarios.FirstOrDefault(s => s.Id == id)
                    ?? throw TplabException.Usage($"--scenario {id}: not in {planPath} (scenarios: {string.Join(", ", experiment.Scenarios.Select(s => s.Id))})");
                scenario = scenario with { Deadline = deadline };
                service = experiment.Service;
            }
            else
            {
                var v = r.GetValue(variant)?.TrimStart('/') ?? throw TplabException.Usage("give --variant NAME (tplab's target) or --plan FILE --scenario ID (your service)");
                if (!Variants.All.Contains(v))
                {
                    throw TplabException.Usage($"--variant: unknown variant '{v}' (one of: {string.Join(", ", Variants.All)})");
                }
                scenario = new Scenario
                {
                    Experiment = "tune", Id = "tune", Variant = v, WaitMs = r.GetValue(waitMs), Deadline = deadline,
                    Load = Load(r.GetValue(concurrency), r.GetValue(requests), r.GetValue(duration), r.GetValue(rate)),
                };
            }
            var knobs = r.GetValue(tryKnob) ?? [];
            var options = new TuneOptions
            {
                Scenario = scenario, Service = service, Objective = Objective.Parse(r.GetValue(slo)!),
                MaxThreads = r.GetValue(maxThreads), PrecisionPercent = r.GetValue(precision),
                TryKnobs = knobs.Length == 0 ? TuneOptions.DefaultTryKnobs
                    : knobs.Length == 1 && knobs[0] == "none" ? [] : ThreadPoolSettings.ParseKnobs(knobs),
                ResultsRoot = r.GetValue(results)!,
                ConnectionString = r.GetValue(pg) ?? (string.IsNullOrWhiteSpace(Environment.GetEnvironmentVariable("TPLAB_PG")) ? null : Environment.GetEnvironmentVariable("TPLAB_PG")),
            };
            if (options.PrecisionPercent is <= 0 or > 50)
            {
                throw TplabException.Usage($"--precision must be above 0 and at most 50 (percent), got {options.PrecisionPercent}");
            }
            var json = r.GetValue(format) == "json";
            var progress = json ? Console.Error : Console.Out;
            var result = await TuneRunner.RunAsync(options, new TuneConsoleView(progress, !Console.IsOutputRedirected && !json), ct);
            if (json)
            {
                TuneJson.Write(result, Console.Out);
            }
            else
            {
                TuneText.Write(result, Console.Out);
            }
            return result.Interrupted ? ExitCodes.Interrupted : result.DefaultMeets || result.RecommendedMinThreads is not null ? ExitCodes.Ok : ExitCodes.Failed;
        });
        return command;
    }

    private static LoadProfile Load(int concurrency, int? requests, string? duration, double? rate)
    {
        var d = duration is null ? (TimeSpan?)null : DurationText.Parse(duration, "--duration");
        if (concurrency is < 1 or > LoadOptions.MaxConcurrency)
        {
            throw TplabException.Usage($"--concurrency must be between 1 and {LoadOptions.MaxConcurrency}, got {concurrency}");
        }
        if (rate is double perSecond)
        {
            return perSecond > 0 && d is not null
                ? new LoadProfile { Model = LoadModel.Open, Rate = perSecond, Duration = d }
                : throw TplabException.Usage("--rate needs a positive rate and --duration");
        }
        return requests is null && d is null
            ? throw TplabException.Usage("say how long each trial loads: -n/--requests or --duration")
            : new LoadProfile { Concurrency = concurrency, Requests = requests, Duration = d };
    }
}
