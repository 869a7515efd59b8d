using System.CommandLine;
using Tplab.Cli.Binding;
using Tplab.Common;
using Tplab.Lab.Tuning;
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
        var format = new Option<string>("--format") { Description = TuneFormats.Catalogue.Help, DefaultValueFactory = _ => TuneFormats.Catalogue.Default.Name };
        format.AcceptOnly([.. TuneFormats.Catalogue.All.Select(f => f.Name)]);
        var pg = new Option<string?>("--pg") { Description = "Npgsql connection string for the db variants; default $TPLAB_PG, else a private PostgreSQL" };
        var command = new Command("tune", "Find the least minimum worker threads that meets an objective, verified on fresh processes, with its cost and settings to paste")
        {
            slo, variant, waitMs, concurrency, requests, duration, rate, plan, scenarioId, maxThreads, precision, tryKnob, trialDeadline, results, format, pg,
        };
        command.WritesFolder(results);
        command.SetAction(async (r, ct) =>
        {
            var (scenario, service) = new TuneTarget
            {
                Variant = r.GetValue(variant), WaitMs = r.GetValue(waitMs), Concurrency = r.GetValue(concurrency), Requests = r.GetValue(requests),
                Duration = r.GetValue(duration) is { } d ? DurationText.Parse(d, "--duration") : null, Rate = r.GetValue(rate),
                PlanPath = r.GetValue(plan), ScenarioId = r.GetValue(scenarioId),
                TrialDeadline = DurationText.Parse(r.GetValue(trialDeadline)!, "--trial-deadline"),
            }.Resolve();
            var knobs = r.GetValue(tryKnob) ?? [];
            var options = new TuneOptions
            {
                Scenario = scenario, Service = service, Objective = Objective.Parse(r.GetValue(slo)!),
                MaxThreads = r.GetValue(maxThreads), PrecisionPercent = r.GetValue(precision),
                TryKnobs = knobs.Length == 0 ? TuneOptions.DefaultTryKnobs
                    : knobs is [var only] && only.Equals("none", StringComparison.OrdinalIgnoreCase) ? [] : ThreadPoolSettings.ParseKnobs(knobs),
                ResultsRoot = r.GetValue(results)!,
                ConnectionString = TargetStackOptions.ConnectionStringOrEnvironment(r.GetValue(pg)),
            }.Validated();
            // A machine-readable format has stdout to itself: the progress goes to stderr.
            var chosen = TuneFormats.Catalogue.Find(r.GetValue(format));
            var progress = chosen.MachineReadable ? Console.Error : Console.Out;
            var result = await TuneRunner.RunAsync(options, new TuneConsoleView(progress, !Console.IsOutputRedirected && !chosen.MachineReadable), ct);
            chosen.Write(result, Console.Out);
            if (result.Message is { } message)
            {
                await Console.Error.WriteLineAsync("tplab: " + TerminalText.Line(message));
            }
            return result.ExitCode;
        });
        return command;
    }
}
