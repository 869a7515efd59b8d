using System.CommandLine;
using Tplab.Cli.Binding;
using Tplab.Launch;
using Tplab.Common;
using Tplab.Lab;
using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Lab.Terminal;
using Tplab.Reports.Terminal;

namespace Tplab.Cli.Commands;

/// <summary><c>tplab run</c>: the seed experiments redone on this machine, beside the published figures.</summary>
internal static class RunCommand
{
    public static Command Create()
    {
        var full = new Option<bool>("--full") { Description = "The seeds' exact parameters (default: the quick profile, about 3 minutes on 2 cores)" };
        var experiment = new Option<string[]>("--experiment") { Description = $"Run only these experiments ({string.Join(", ", SeedExperiments.Names)}); repeatable" };
        var variant = new Option<string[]>("--variant") { Description = "Run only scenarios of these variants (e.g. sleep, db-async); repeatable" };
        var plan = new Option<string?>("--plan") { Description = "A plan file (JSON or YAML) of variants × loads × pool settings, instead of the seed experiments (docs/lab.md)" };
        var results = new Option<string>("--results") { Description = "Folder for results/<timestamp>/", DefaultValueFactory = _ => "results" };
        var pg = new Option<string?>("--pg") { Description = "Npgsql connection string for the db variants; default $TPLAB_PG, else a private PostgreSQL" };
        var noDiagnose = new Option<bool>("--no-diagnose") { Description = "Do not look for the blocking code during starving scenarios" };
        var interval = new Option<string>("--interval") { Description = "Pool sampling interval (at least 250ms)", DefaultValueFactory = _ => "500ms" };
        var repeat = new Option<int>("--repeat") { Description = $"Run each scenario N times (1 to {LabOptions.MaxRepeat}), each on a fresh process; tables show the mean and the range", DefaultValueFactory = _ => 1 };
        var allowPartial = new Option<bool>("--allow-partial") { Description = $"Exit 0 when some scenarios failed or experiments were skipped (default: exit {ExitCodes.Partial}, naming them)" };
        var (minThreads, knobs) = ThreadPoolOptions.Create();
        minThreads.Description = "Run every selected variant with SetMinThreads(N) instead of the experiments' own settings";
        var command = new Command("run", "Reproduce the seed experiments: tables in the terminal, results/<timestamp>/summary.json and report.html")
        {
            full, experiment, variant, plan, repeat, minThreads, knobs, results, pg, noDiagnose, interval, allowPartial,
        };
        command.WritesFolder(results);
        command.Excludes(experiment, plan, "a plan runs its own scenarios; --experiment picks seed experiments")
            .Excludes(full, plan, "a plan gives its own loads; --full picks the seeds' exact parameters");
        command.SetAction(async (r, ct) =>
        {
            var pool = ThreadPoolOptions.Bind(r, minThreads, knobs);
            var options = new LabOptions
            {
                Profile = r.GetValue(full) ? LabProfile.Full : LabProfile.Quick,
                Experiments = r.GetValue(experiment) ?? [],
                Variants = r.GetValue(variant) ?? [],
                PlanPath = r.GetValue(plan),
                ThreadPoolOverride = pool == ThreadPoolSettings.Default ? null : pool,
                ResultsRoot = r.GetValue(results)!,
                ConnectionString = TargetStackOptions.ConnectionStringOrEnvironment(r.GetValue(pg)),
                Diagnose = !r.GetValue(noDiagnose),
                WatchInterval = DurationText.Parse(r.GetValue(interval)!, "--interval"),
                Repeat = r.GetValue(repeat),
            }.Validated();
            var (console, interactive) = Consoles.ForStdout();
            var lab = await LabRunner.RunAsync(options, new LabConsoleView(console, interactive), ct);
            var outcome = LabOutcome.Of(lab, r.GetValue(allowPartial));
            if (outcome.Message is { } message)
            {
                await Console.Error.WriteLineAsync("tplab: " + TerminalText.Line(message));
            }
            return outcome.ExitCode;
        });
        return command;
    }
}
