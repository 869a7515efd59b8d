using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;
using Tplab.Common;
using Tplab.Watch;

namespace Tplab.Cli.Commands;

/// <summary>Options of <c>tplab watch</c>: a PID to attach to, or a command to start (after <c>--</c>).</summary>
internal sealed record WatchCommandOptions(int? ProcessId, IReadOnlyList<string> Command, TimeSpan Interval, TimeSpan? Duration, string Format, string? Output);

/// <summary><c>tplab watch</c>: a .NET process's thread pool, sample by sample, with the starvation verdict.</summary>
internal static class WatchCommand
{
    private static readonly string[] Formats = ["live", "jsonl", "csv"];

    public static Command Create()
    {
        var target = new Argument<string[]>("pid | -- command") { Description = "Process id to attach to, or -- and a command to start and watch from its first moment", Arity = ArgumentArity.ZeroOrMore };
        var interval = new Option<string>("--interval") { Description = "Time between samples (at least 0.25s)", DefaultValueFactory = _ => "1s" };
        var duration = new Option<string?>("--duration") { Description = "Stop after this long (e.g. 30s, 2m); default: until Ctrl+C or the process exits" };
        var format = new Option<string?>("--format") { Description = "live (terminal, refreshed in place), jsonl or csv; default live, or jsonl with --output" };
        format.AcceptOnlyFromAmong(Formats);
        var output = new Option<string?>("--output", "-o") { Description = "Write the records to this file instead of the terminal" };
        var command = new Command("watch", "Watch a .NET process's thread pool: counters, the runtime's thread injections with their reasons, and a starvation verdict")
        {
            target, interval, duration, format, output,
        };
        command.SetAction(async (result, ct) => await WatchRunner.RunAsync(Bind(result, target, interval, duration, format, output), ct));
        return command;
    }

    private static WatchCommandOptions Bind(ParseResult result, Argument<string[]> target, Option<string> interval, Option<string?> duration, Option<string?> format, Option<string?> output)
    {
        var values = result.GetValue(target) ?? [];
        var doubleDash = result.Tokens.Any(t => t.Type == TokenType.DoubleDash);
        int? pid = null;
        IReadOnlyList<string> commandLine = [];
        if (doubleDash)
        {
            commandLine = values;
            if (commandLine.Count == 0)
            {
                throw TplabException.Usage("nothing to start after --: tplab watch -- COMMAND ARGS");
            }
        }
        else if (values.Length == 1 && int.TryParse(values[0], NumberStyles.None, CultureInfo.InvariantCulture, out var id) && id > 0)
        {
            pid = id;
        }
        else
        {
            throw TplabException.Usage(values.Length == 0
                ? "watch needs a process id, or -- and a command: tplab watch PID | tplab watch -- COMMAND ARGS"
                : $"'{string.Join(' ', values)}' is not a process id; to start a command put -- before it");
        }
        var file = result.GetValue(output);
        var chosen = result.GetValue(format) ?? (file is null ? "live" : "jsonl");
        if (chosen == "live" && file is not null)
        {
            throw TplabException.Usage("--format live draws on the terminal; use --format jsonl or csv with --output");
        }
        return new WatchCommandOptions(
            pid,
            commandLine,
            DurationText.Parse(result.GetValue(interval) ?? "1s", "--interval"),
            result.GetValue(duration) is { } d ? Positive(DurationText.Parse(d, "--duration"), d) : null,
            chosen,
            file);
    }

    private static TimeSpan Positive(TimeSpan value, string text) =>
        value > TimeSpan.Zero ? value : throw TplabException.Usage($"--duration must be more than zero, got '{text}'");
}
