using System.CommandLine;
using Tplab.Cli.Binding;
using System.Globalization;
using Tplab.Common;
using Tplab.Load;
using Tplab.Load.Engine;
using Tplab.Load.Formats;
using Tplab.Load.Histograms;
using Tplab.Load.Pacing;
using Tplab.Load.Summary;
using Tplab.Load.Requests;

namespace Tplab.Cli.Commands;

/// <summary>Options of <c>tplab load</c>: the library's options plus where the reports go.</summary>
internal sealed record LoadCommandOptions(LoadOptions Load, IReadOnlyList<ReportOutput> Outputs, bool Quiet);

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
        command.SetAction(async (result, ct) =>
        {
            var targets = Targets(result.GetValue(url), result.GetValue(method)!, result.GetValue(header) ?? [], result.GetValue(body), result.GetValue(targetsFile));
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
            if (result.GetValue(search) is { } range)
            {
                var (start, max) = SearchRange(range);
                (load with { Rate = start }).Validate();
                var steps = await RateSearch.RunAsync(load, start, max, result.GetValue(searchStep) ?? start, step => Console.Error.WriteLine("tplab: " + RateSearch.Describe(step)), ct);
                RateSearch.Write(steps, Console.Out);
                return steps.Any(s => s.Passed) ? ExitCodes.Ok : ExitCodes.ThresholdsFailed;
            }
            var outputs = Outputs(result.GetValue(format) ?? [], result.GetValue(output) ?? []);
            // Only the html page needs every record in memory (its per-request timeline); csv and hlog stream; only
            // ab's percentile table reads the exact latencies.
            load = load with
            {
                KeepRecords = outputs.Any(o => o.Format is IResultFormat),
                ExactLatencies = outputs.Any(o => o.Format is ISummaryFormat { NeedsExactLatencies: true }),
            };
            var options = new LoadCommandOptions(load.Validate(), outputs, result.GetValue(quiet));
            return await RunAsync(options, ct);
        });
        return command;
    }

    // Opens the outputs (an unwritable one fails before any load), runs the library's LoadRunner, writes the reports
    // and prints the library's exit decision: like watch (WatchRun) and run (LabRunner), the command only binds and prints.
    private static async Task<int> RunAsync(LoadCommandOptions options, CancellationToken ct)
    {
        var targets = options.Load.EffectiveTargets;
        using var writer = CompositeReportWriter.Open(options.Outputs, Console.Out, [.. targets.Select(t => t.Label)]);
        var progress = options.Quiet || Console.IsErrorRedirected ? null : new ProgressLine(Console.Error);
        var result = await LoadRunner.RunAsync(options.Load, progress, writer, ct);
        progress?.Finish();
        var failures = writer.WriteAll(result);
        if (writer.OutputClosed && failures.Count == 0)
        {
            // The reader took what it wanted (| head -1) and left: the files were still written; nothing to say.
            return ExitCodes.OutputClosed;
        }
        foreach (var failure in failures)
        {
            await Console.Error.WriteLineAsync($"tplab: {failure}");
        }
        var (code, message) = LoadExit.Decide(result.Summary, failures);
        if (message is not null)
        {
            await Console.Error.WriteLineAsync($"tplab: {message}");
        }
        return code;
    }

    // tplab load merge A.hlog B.hlog: the interval logs of several runs (other processes, other machines) as one.
    private static Command MergeCommand()
    {
        var files = new Argument<string[]>("files") { Description = "HdrHistogram interval logs (.hlog) written with --format hlog", Arity = ArgumentArity.OneOrMore };
        var format = new Option<string>("--format") { Description = $"text, json or hgrm", DefaultValueFactory = _ => "text" }.AcceptOnly("text", "json", "hgrm");
        var command = new Command("merge", "Merge interval logs (.hlog) from several runs into one latency report, exactly") { files, format };
        command.SetAction(result =>
        {
            MergeReport.Write(HistogramLog.Merge(result.GetValue(files)!), result.GetValue(format)!, Console.Out);
            return ExitCodes.Ok;
        });
        return command;
    }

    // What to send: the URL with -X, -H and -d, or a vegeta targets file (with -H on every target). Files are read now:
    // a missing body or targets file stops the run before anything is sent.
    private static IReadOnlyList<RequestTemplate> Targets(string? url, string method, string[] headerTexts, string? body, string? targetsFile)
    {
        var headers = headerTexts.Select(h => RequestText.ParseHeader(h, "--header")).ToList();
        if (targetsFile is not null)
        {
            if (url is not null || body is not null)
            {
                throw TplabException.Usage("give either a URL (with -X, -d) or --targets FILE, not both");
            }
            return TargetsFile.Load(targetsFile, headers);
        }
        if (url is null)
        {
            throw TplabException.Usage("give the URL to load, or --targets FILE");
        }
        var content = body is null ? ReadOnlyMemory<byte>.Empty : RequestText.ReadBody(body, "--body");
        return [new RequestTemplate(method.ToUpperInvariant(), ParseUrl(url), headers, content)];
    }

    private static (double Start, double Max) SearchRange(string text)
    {
        var parts = text.Split("..");
        return parts.Length == 2
            && double.TryParse(parts[0], NumberStyles.Float, CultureInfo.InvariantCulture, out var start)
            && double.TryParse(parts[1], NumberStyles.Float, CultureInfo.InvariantCulture, out var max)
            ? (start, max)
            : throw TplabException.Usage($"--search must be START..MAX requests per second (e.g. 100..2000), got '{text}'");
    }

    private static Uri ParseUrl(string text) =>
        Uri.TryCreate(text, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https" && uri.Host.Length > 0
            ? uri
            : throw TplabException.Usage($"the URL must be an absolute http:// or https:// URL, got '{text}'");

    private static EngineChoice ParseEngine(string text) => text switch
    {
        "sockets" => EngineChoice.Sockets,
        "httpclient" => EngineChoice.HttpClient,
        _ => EngineChoice.Auto,
    };

    private static TimeSpan? Duration(string? text, string option) => text is null ? null : DurationText.Parse(text, option);

    /// <summary>
    /// Formats and outputs pair by position: the i-th --output receives the i-th --format; a format without an output
    /// goes to stdout; an output without a format takes it from its extension (.json, .csv, .hgrm, .txt).
    /// </summary>
    internal static IReadOnlyList<ReportOutput> Outputs(string[] formats, string[] outputs)
    {
        var names = formats.SelectMany(f => f.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)).ToList();
        var list = new List<ReportOutput>();
        for (var i = 0; i < Math.Max(names.Count, outputs.Length); i++)
        {
            var path = i < outputs.Length && outputs[i] != "-" ? outputs[i] : null;
            var name = i < names.Count ? names[i] : FromExtension(outputs[i]);
            list.Add(new ReportOutput(LoadFormats.Find(name), path));
        }
        if (list.Count == 0)
        {
            list.Add(new ReportOutput(LoadFormats.Default, null));
        }
        if (list.Count(o => o.Path is null) > 1 && list.Any(o => o.Path is null && o.Format.Name is "json" or "csv" or "hlog"))
        {
            throw TplabException.Usage("only one machine-readable format (json, csv, hlog) can go to stdout alongside others; give it --output FILE");
        }
        return list;
    }

    private static string FromExtension(string path) => Path.GetExtension(path).ToLower(CultureInfo.InvariantCulture) switch
    {
        ".json" => "json",
        ".csv" => "csv",
        ".hgrm" => "hgrm",
        ".hlog" => "hlog",
        ".txt" => "text",
        ".html" or ".htm" => "html",
        _ => throw TplabException.Usage($"cannot tell the format of --output {path} from its extension; give --format for it"),
    };
}
