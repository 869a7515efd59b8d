using System.CommandLine;
using Tplab.Cli.Binding;
using System.CommandLine.Parsing;
using System.Globalization;
using Tplab.Common;
using OpenTelemetry.Exporter;
using Tplab.Watch.Delay;
using Tplab.Watch.Export;
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
        var format = new Option<string?>("--format") { Description = WatchFormats.Catalogue.Help + "; with --output and no --format, the file's extension (.csv, .html), else jsonl" };
        format.AcceptOnly([.. WatchFormats.Catalogue.All.Select(f => f.Name)]);
        var from = new Option<string?>("--from") { Description = "Write a saved watch (a --format jsonl file, or a lab scenario's timeline.jsonl) in --format, instead of watching a process" };
        var output = new Option<string?>("--output", "-o") { Description = "Write the records to this file instead of the terminal" };
        var failOn = new Option<string?>("--fail-on") { Description = "starving: exit with code 9 as soon as the pool is starving (CI smoke tests)" };
        failOn.AcceptOnly("starving");
        var onStarving = new Option<string?>("--on-starving") { Description = "diagnose[=FILE]: when the pool turns starving, capture stacks and write a diagnosis (once per episode), while the watch goes on" };
        var all = new Option<bool>("--all") { Description = "With -n NAME: every process of that name, and those that start later" };
        var delay = new Option<string>("--delay") { Description = "The scheduling delay from the runtime's work-item events: sampled (windows within a budget), continuous, or off", DefaultValueFactory = _ => "sampled" };
        delay.AcceptOnly([.. DelayOptions.Modes]);
        var prometheus = new Option<string?>("--prometheus") { Description = "Serve the pool's metrics for Prometheus at ADDRESS/metrics (e.g. :9464, loopback unless you name another address)" };
        var otlp = new Option<string?>("--otlp") { Description = "Export the pool's metrics and culprits to an OpenTelemetry collector at URL (e.g. http://127.0.0.1:4317)" };
        var otlpProtocol = new Option<string>("--otlp-protocol") { Description = "grpc or http/protobuf", DefaultValueFactory = _ => "grpc" };
        otlpProtocol.AcceptOnly("grpc", "http/protobuf");
        var service = new Option<string?>("--service") { Description = "The service label on exported series (default: the host name)" };
        var command = new Command("watch", "Watch a .NET process's thread pool: counters, the runtime's thread injections with their reasons, the scheduling delay, and a starvation verdict")
        {
            target, name, all, interval, duration, format, output, from, failOn, onStarving, delay, prometheus, otlp, otlpProtocol, service,
        };
        command.Requires(otlpProtocol, "it says how to send to the --otlp collector", otlp)
            .Requires(service, "it labels the exported series", otlp, prometheus);
        command.Writes(output).Writes(onStarving, v => v.StartsWith("diagnose=", StringComparison.OrdinalIgnoreCase) ? v["diagnose=".Length..] : null).Reads(from, "the --from file");
        command.SetAction(async (result, ct) =>
        {
            var (pids, commandLine) = Target(result, target, result.GetValue(name) is not null || result.GetValue(from) is not null);
            var file = result.GetValue(output);
            var options = new WatchRunOptions
            {
                ProcessIds = pids,
                Name = result.GetValue(name),
                All = result.GetValue(all),
                Delay = DelayOptions.Parse(result.GetValue(delay) ?? "sampled"),
                Prometheus = result.GetValue(prometheus) is { } address ? ListenAddress.Parse(address) : null,
                Otlp = result.GetValue(otlp) is { } url ? OtlpUrl(url) : null,
                OtlpProtocol = result.GetValue(otlpProtocol) == "http/protobuf" ? OtlpExportProtocol.HttpProtobuf : OtlpExportProtocol.Grpc,
                Service = result.GetValue(service),
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

    private static Uri OtlpUrl(string text) => Uri.TryCreate(text, UriKind.Absolute, out var url)
        ? url
        : throw TplabException.Usage($"--otlp must be a URL such as http://127.0.0.1:4317, got '{text}'");

    private static (IReadOnlyList<int> Pids, IReadOnlyList<string> Command) Target(ParseResult result, Argument<string[]> target, bool byName)
    {
        var values = result.GetValue(target) ?? [];
        if (result.Tokens.Any(t => t.Type == TokenType.DoubleDash))
        {
            return values.Length == 0 ? throw TplabException.Usage("nothing to start after --: tplab watch -- COMMAND ARGS") : ([], values);
        }
        if (values.Length == 0 && byName)
        {
            return ([], []);
        }
        var pids = values.Select(v => int.TryParse(v, NumberStyles.None, CultureInfo.InvariantCulture, out var id) && id > 0 ? id : 0).ToList();
        if (values.Length > 0 && pids.All(p => p > 0))
        {
            return (pids.Distinct().ToList(), []);
        }
        throw TplabException.Usage(values.Length == 0
            ? "watch needs a process id, -n NAME, or -- and a command: tplab watch PID | tplab watch -n NAME | tplab watch -- COMMAND ARGS"
            : $"'{string.Join(' ', values)}' is not a process id; to start a command put -- before it");
    }
}
