using System.CommandLine;
using System.Globalization;
using Tplab.Common;
using Tplab.Load;
using Tplab.Load.Formats;

namespace Tplab.Cli.Commands;

/// <summary>Options of <c>tplab load</c>: the library's options plus where the reports go.</summary>
internal sealed record LoadCommandOptions(LoadOptions Load, IReadOnlyList<ReportOutput> Outputs, bool Quiet);

/// <summary><c>tplab load URL</c>: closed- or open-loop load with the peers' report formats (docs/load.md).</summary>
internal static class LoadCommand
{
    public static Command Create()
    {
        var url = new Argument<string>("url") { Description = "The URL to GET (loopback unless --allow-remote)" };
        var concurrency = new Option<int>("--concurrency", "-c") { Description = "Closed loop: users (default 1)", DefaultValueFactory = _ => 1 };
        var requests = new Option<long?>("--requests", "-n") { Description = "Total requests (closed loop), or the hit limit with --rate" };
        var duration = new Option<string?>("--duration") { Description = "No request starts after this (10s, 1m, 500ms, 1.5s)" };
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
        var command = new Command("load", "Load a URL: closed loop (ab, JMeter, siege) or open loop with --rate (vegeta), latency measured right")
        {
            url, concurrency, requests, duration, rampUp, loops, think, rate, maxInFlight, timeout, noKeepAlive, format, output, quiet, allowRemote,
        };
        command.SetAction(async (result, ct) =>
        {
            var load = new LoadOptions
            {
                Url = ParseUrl(result.GetValue(url)!),
                Concurrency = result.GetValue(concurrency),
                Requests = result.GetValue(requests),
                Duration = Duration(result.GetValue(duration), "--duration"),
                RampUp = Duration(result.GetValue(rampUp), "--ramp-up") ?? TimeSpan.Zero,
                Loops = result.GetValue(loops),
                Think = result.GetValue(think) is { } t ? ThinkTime.Parse(t, "--think") : null,
                Rate = result.GetValue(rate),
                MaxInFlight = result.GetValue(maxInFlight),
                Timeout = DurationText.Parse(result.GetValue(timeout)!, "--timeout"),
                KeepAlive = !result.GetValue(noKeepAlive),
                AllowRemote = result.GetValue(allowRemote),
            };
            var options = new LoadCommandOptions(load.Validate(), Outputs(result.GetValue(format) ?? [], result.GetValue(output) ?? []), result.GetValue(quiet));
            return await LoadCli.RunAsync(options, ct);
        });
        return command;
    }

    private static Uri ParseUrl(string text) =>
        Uri.TryCreate(text, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https" && uri.Host.Length > 0
            ? uri
            : throw TplabException.Usage($"the URL must be an absolute http:// or https:// URL, got '{text}'");

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
        if (list.Count(o => o.Path is null) > 1 && list.Any(o => o.Path is null && o.Format.Name is "json" or "csv"))
        {
            throw TplabException.Usage("only one machine-readable format (json, csv) can go to stdout alongside others; give it --output FILE");
        }
        return list;
    }

    private static string FromExtension(string path) => Path.GetExtension(path).ToLower(CultureInfo.InvariantCulture) switch
    {
        ".json" => "json",
        ".csv" => "csv",
        ".hgrm" => "hgrm",
        ".txt" => "text",
        _ => throw TplabException.Usage($"cannot tell the format of --output {path} from its extension; give --format for it"),
    };
}
