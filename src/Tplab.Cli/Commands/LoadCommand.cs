using System.CommandLine;
using Tplab.Cli.Binding;
using Tplab.Common;
using Tplab.Load;
using Tplab.Load.Engine;
using Tplab.Load.Formats;
using Tplab.Load.Histograms;
using Tplab.Load.Pacing;
using Tplab.Load.Summary;
using Tplab.Load.Requests;

namespace Tplab.Cli.Commands;

/// <summary><c>tplab load URL</c>: closed- or open-loop load with the peers' report formats (docs/load.md).</summary>
internal static class LoadCommand
{
    public static Command Create()
    {
        var url = new Argument<string?>("url") { Description = "The URL to load (loopback unless --allow-remote); or give --targets", Arity = ArgumentArity.ZeroOrOne };
        var method = new Option<string>("--method", "-X") { Description = "HTTP method", DefaultValueFactory = _ => "GET" };
        var header = new Option<string[]>("--header", "-H") { Description = "Request header 'Name: value'; repeatable (with --targets: added to every target)" };
        var body = new Option<string?>("--body", "-d") { Description = "Request body: the text itself, or @FILE for a file's bytes" };
        var targetsFile = new Option<string?>("--targets") { Description = "vegeta targets file: 'METHOD URL', header lines, '@body' file, blank line between targets" };
        var insecure = new Option<bool>("--insecure") { Description = "HTTPS: accept any certificate (a self-signed one on loopback)" };
        var threshold = new Option<string[]>("--threshold") { Description = $"Objective checked at the end, exit 99 when one fails; repeatable: 'p99<500ms', 'errors<1%' ({Tplab.Load.Thresholds.Threshold.Metrics})" };
        var stage = new Option<string[]>("--stage") { Description = "Open loop: DURATION:RATE, move linearly to RATE over DURATION (k6 stages); repeatable; starts from --rate (default 0)" };
        var search = new Option<string?>("--search") { Description = "Find the highest rate START..MAX (per second) that meets every --threshold, each rate held for --duration" };
        var searchStep = new Option<double?>("--search-step") { Description = "Rate added at each --search step (default START)" };
        var abortOnThreshold = new Option<bool>("--abort-on-threshold") { Description = "Stop sending as soon as a threshold fails (checked every second from 2 s in)" };
        var concurrency = new Option<int>("--concurrency", "-c") { Description = "Closed loop: users (default 1)", DefaultValueFactory = _ => 1 };
        var requests = new Option<long?>("--requests", "-n") { Description = "Total requests (closed loop), or the hit limit with --rate" };
        var duration = new Option<string?>("--duration") { Description = "No request starts after this (10s, 1m, 500ms, 1.5s)" };
        var warmup = new Option<string?>("--warmup") { Description = "Send this long first, not measured (same requests and model)" };
        var rampUp = new Option<string?>("--ramp-up") { Description = "Closed loop: start users evenly over this time, the first at once" };
        var loops = new Option<int?>("--loops") { Description = "Closed loop: requests per user (JMeter's loop count)" };
        var think = new Option<string?>("--think") { Description = "Closed loop: random pause MIN..MAX between a user's requests (e.g. 0..200ms)" };
        var rate = new Option<double?>("--rate") { Description = "Open loop: requests per second, sent on schedule (needs --duration or -n)" };
        var maxInFlight = new Option<int?>("--max-in-flight") { Description = "Open loop: most requests in flight (default unlimited)" };
        var timeout = new Option<string>("--timeout") { Description = "Per-request timeout", DefaultValueFactory = _ => "30s" };
        var noKeepAlive = new Option<bool>("--no-keepalive") { Description = "A new connection per request (ab without -k)" };
        var format = new Option<string[]>("--format") { Description = $"Report format, repeatable or comma-separated: {LoadFormats.Names}", AllowMultipleArgumentsPerToken = false };
        var output = new Option<string[]>("--output", "-o") { Description = "File for the format at the same position (- for stdout); repeatable" };
        var quiet = new Option<bool>("--quiet", "-q") { Description = "No progress line on stderr" };
        var allowRemote = new Option<bool>("--allow-remote") { Description = "Allow a target that is not loopback" };
        var engine = new Option<string>("--engine") { Description = "auto (sockets for plain http on Linux, else httpclient), sockets, httpclient", DefaultValueFactory = _ => "auto" }
            .AcceptOnly("auto", "sockets", "httpclient");
        var command = new Command("load", "Load a URL: closed loop (ab, JMeter, siege) or open loop with --rate (vegeta), latency measured right")
        {
            url, method, header, body, targetsFile, concurrency, requests, duration, warmup, rampUp, loops, think, rate, maxInFlight, timeout, noKeepAlive,
            insecure, stage, search, searchStep, threshold, abortOnThreshold, format, output, quiet, allowRemote, engine,
        };
        command.Subcommands.Add(MergeCommand());
        command.Writes(output).Reads(targetsFile, "the --targets file").Reads(body, "the --body file", v => v.StartsWith('@') ? v[1..] : null);
        command.SetAction(async (result, ct) =>
        {
            var targets = RequestText.Templates(result.GetValue(url), result.GetValue(method)!, result.GetValue(header) ?? [], result.GetValue(body), result.GetValue(targetsFile));
            var load = new LoadOptions
            {
                Url = targets[0].Url,
                Targets = targets,
                Insecure = result.GetValue(insecure),
                Thresholds = [.. (result.GetValue(threshold) ?? []).Select(Tplab.Load.Thresholds.Threshold.Parse)],
                AbortOnThreshold = result.GetValue(abortOnThreshold),
                Concurrency = result.GetValue(concurrency),
                Requests = result.GetValue(requests),
                Duration = Duration(result.GetValue(duration), "--duration"),
                RampUp = Duration(result.GetValue(rampUp), "--ramp-up") ?? TimeSpan.Zero,
                Warmup = Duration(result.GetValue(warmup), "--warmup") ?? TimeSpan.Zero,
                Loops = result.GetValue(loops),
                Think = result.GetValue(think) is { } t ? ThinkTime.Parse(t, "--think") : null,
                Rate = result.GetValue(rate),
                Stages = [.. (result.GetValue(stage) ?? []).Select(s => RateStage.Parse(s, "--stage"))],
                MaxInFlight = result.GetValue(maxInFlight),
                Timeout = DurationText.Parse(result.GetValue(timeout)!, "--timeout"),
                KeepAlive = !result.GetValue(noKeepAlive),
                AllowRemote = result.GetValue(allowRemote),
                Engine = ParseEngine(result.GetValue(engine)!),
            };
            var terminal = new LoadTerminal(Console.Out, Console.Error, ErrorIsTerminal: !Console.IsErrorRedirected);
            if (result.GetValue(search) is { } range)
            {
                return await LoadRun.SearchAsync(load, range, result.GetValue(searchStep), terminal, ct);
            }
            var options = new LoadRunOptions(load, LoadFormats.Outputs(result.GetValue(format) ?? [], result.GetValue(output) ?? []), result.GetValue(quiet));
            return await LoadRun.RunAsync(options, terminal, ct);
        });
        return command;
    }

    // tplab load merge A.hlog B.hlog: the interval logs of several runs (other processes, other machines) as one.
    private static Command MergeCommand()
    {
        var files = new Argument<string[]>("files") { Description = "HdrHistogram interval logs (.hlog) written with --format hlog", Arity = ArgumentArity.OneOrMore };
        var format = new Option<string>("--format") { Description = MergeReport.Catalogue.Help, DefaultValueFactory = _ => MergeReport.Catalogue.Default.Name }
            .AcceptOnly([.. MergeReport.Catalogue.All.Select(f => f.Name)]);
        var command = new Command("merge", "Merge interval logs (.hlog) from several runs into one latency report, exactly") { files, format };
        command.SetAction(result =>
        {
            MergeReport.Write(HistogramLog.Merge(result.GetValue(files)!), result.GetValue(format)!, Console.Out);
            return ExitCodes.Ok;
        });
        return command;
    }

    private static EngineChoice ParseEngine(string text) => text.ToLowerInvariant() switch
    {
        "auto" => EngineChoice.Auto,
        "sockets" => EngineChoice.Sockets,
        "httpclient" => EngineChoice.HttpClient,
        _ => throw TplabException.Usage($"--engine must be auto, sockets or httpclient, got '{text}'"),
    };

    private static TimeSpan? Duration(string? text, string option) => text is null ? null : DurationText.Parse(text, option);
}
