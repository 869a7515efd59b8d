using System.CommandLine;
using Tplab.Cli.Binding;
using System.CommandLine.Parsing;
using System.Globalization;
using Tplab.Common;
using Tplab.Reports.Terminal;
using Tplab.Watch.Output;
using Tplab.Watch.Running;
using Tplab.Diagnose.OnStarving;

namespace Tplab.Cli.Commands;

/// <summary><c>tplab watch</c>: a .NET process's thread pool, sample by sample, with the starvation verdict.</summary>
internal static class WatchCommand
{
    public static Command Create()
    {
        var target = new Argument<string[]>("pid | -- command") { Description = "Process id to attach to, or -- and a command to start and watch from its first moment", Arity = ArgumentArity.ZeroOrMore };
        var name = new Option<string?>("--name", "-n") { Description = "Watch the one .NET process with this name (the app's dll or executable name)" };
        var interval = new Option<string>("--interval") { Description = "Time between samples (at least 0.25s)", DefaultValueFactory = _ => "1s" };
        var duration = new Option<string?>("--duration") { Description = "Stop after this long (e.g. 30s, 2m); default: until Ctrl+C or the process exits" };
        var format = new Option<string?>("--format") { Description = "live (terminal, refreshed in place), jsonl, csv, or html (a chart page written at the end); default live, or with --output the file's extension (.csv, .html), else jsonl" };
        format.AcceptOnly([.. WatchFormats.Catalogue.All.Select(f => f.Name)]);
        var from = new Option<string?>("--from") { Description = "Write a saved watch (a --format jsonl file, or a lab scenario's timeline.jsonl) in --format, instead of watching a process" };
        var output = new Option<string?>("--output", "-o") { Description = "Write the records to this file instead of the terminal" };
        var failOn = new Option<string?>("--fail-on") { Description = "starving: exit with code 9 as soon as the pool is starving (CI smoke tests)" };
        failOn.AcceptOnly("starving");
        var onStarving = new Option<string?>("--on-starving") { Description = "diagnose[=FILE]: when the pool turns starving, capture stacks and write a diagnosis (once per episode), while the watch goes on" };
        var command = new Command("watch", "Watch a .NET process's thread pool: counters, the runtime's thread injections with their reasons, and a starvation verdict")
        {
            target, name, interval, duration, format, output, from, failOn, onStarving,
        };
        command.SetAction(async (result, ct) =>
        {
            var (pid, commandLine) = Target(result, target, result.GetValue(name) is not null || result.GetValue(from) is not null);
            var file = result.GetValue(output);
            var options = new WatchRunOptions
            {
                ProcessId = pid,
                Name = result.GetValue(name),
                From = result.GetValue(from),
                Command = commandLine,
                Interval = DurationText.Parse(result.GetValue(interval) ?? "1s", "--interval"),
                Duration = result.GetValue(duration) is { } d ? DurationText.Parse(d, "--duration") : null,
                Format = result.GetValue(format),
                Output = file,
                FailOnStarving = result.GetValue(failOn) == "starving",
                OnStarving = result.GetValue(onStarving) is { } o ? StarvingDiagnosisOptions.Parse(o) : null,
            };
            return await WatchRun.RunAsync(options, new WatchTerminal(Consoles.ForStdout().Console, Console.Out, Console.Error), ct);
        });
        return command;
    }

    private static (int? Pid, IReadOnlyList<string> Command) Target(ParseResult result, Argument<string[]> target, bool byName)
    {
        var values = result.GetValue(target) ?? [];
        if (result.Tokens.Any(t => t.Type == TokenType.DoubleDash))
        {
            return values.Length == 0 ? throw TplabException.Usage("nothing to start after --: tplab watch -- COMMAND ARGS") : (null, values);
        }
        if (values.Length == 0 && byName)
        {
            return (null, []);
        }
        if (values.Length == 1 && int.TryParse(values[0], NumberStyles.None, CultureInfo.InvariantCulture, out var id) && id > 0)
        {
            return (id, []);
        }
        throw TplabException.Usage(values.Length == 0
            ? "watch needs a process id, -n NAME, or -- and a command: tplab watch PID | tplab watch -n NAME | tplab watch -- COMMAND ARGS"
            : $"'{string.Join(' ', values)}' is not a process id; to start a command put -- before it");
    }
}
