using OpenTelemetry.Exporter;
using Tplab.Common;
using Tplab.Watch.Delay;
using Tplab.Watch.Export;
using Tplab.Watch.Output;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Running;

/// <summary>One <c>tplab watch</c> run: what to watch, how often, for how long, where the records go and what to do on starvation.</summary>
public sealed record WatchRunOptions
{
    /// <summary>The processes to attach to; or <see cref="Name"/>, or <see cref="Command"/>.</summary>
    public IReadOnlyList<int> ProcessIds { get; init; } = [];

    /// <summary>One process to attach to (the first of <see cref="ProcessIds"/>, when it is the only one).</summary>
    public int? ProcessId
    {
        get => ProcessIds.Count == 1 ? ProcessIds[0] : null;
        init => ProcessIds = value is { } pid ? [pid] : [];
    }

    /// <summary>A process to find by name (<c>-n</c>): exactly one .NET process of this user must match, unless <see cref="All"/>.</summary>
    public string? Name { get; init; }

    /// <summary>With <see cref="Name"/>: every process of that name, those that start later too (<c>--all</c>).</summary>
    public bool All { get; init; }

    /// <summary>How the scheduling delay is measured (<c>--delay</c>, default sampled).</summary>
    public DelayOptions Delay { get; init; } = new();

    /// <summary>A Prometheus scrape endpoint to serve (<c>--prometheus</c>); null for none.</summary>
    public ListenAddress? Prometheus { get; init; }

    /// <summary>An OpenTelemetry collector to export to (<c>--otlp</c>); null for none.</summary>
    public Uri? Otlp { get; init; }

    /// <summary>The OTLP protocol (<c>--otlp-protocol</c>: grpc, the SDK's default, or http/protobuf).</summary>
    public OtlpExportProtocol OtlpProtocol { get; init; } = OtlpExportProtocol.Grpc;

    /// <summary>The exported <c>service</c> label (<c>--service</c>); null: the host name.</summary>
    public string? Service { get; init; }

    /// <summary>A command to start and watch from its first moment (after <c>--</c>); empty when attaching.</summary>
    public IReadOnlyList<string> Command { get; init; } = [];

    /// <summary>A saved watch (<c>--format jsonl</c>) to write again in <see cref="Format"/> instead of watching a process (<c>--from</c>).</summary>
    public string? From { get; init; }

    /// <summary>Time between samples (default 1 s).</summary>
    public TimeSpan Interval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Stop after this long; null: until Ctrl+C or the process exits.</summary>
    public TimeSpan? Duration { get; init; }

    /// <summary>live, jsonl, csv or html (<see cref="WatchFormats"/>); null: told by <see cref="Output"/>'s extension (jsonl when it tells none), else live.</summary>
    public string? Format { get; init; }

    /// <summary>The format this run writes (<see cref="WatchFormats.Resolve"/>).</summary>
    public IWatchFormat EffectiveFormat => WatchFormats.Resolve(Format, Output);

    /// <summary>Write the records to this file instead of the terminal; null for the terminal.</summary>
    public string? Output { get; init; }

    /// <summary>End with exit <see cref="ExitCodes.Starving"/> as soon as a sample's verdict is starving (<c>--fail-on starving</c>).</summary>
    public bool FailOnStarving { get; init; }

    /// <summary>What to start when the pool turns starving (<c>--on-starving diagnose[=OUT]</c>: a diagnosis); null for nothing.</summary>
    public IStarvingActionFactory? OnStarving { get; init; }

    /// <summary>The verdict rule's thresholds.</summary>
    public VerdictThresholds Thresholds { get; init; } = VerdictThresholds.Default;

    /// <summary>These options, or a usage error naming the first bad value.</summary>
    public WatchRunOptions Validated()
    {
        var targets = (ProcessIds.Count == 0 ? 0 : 1) + (Name is null ? 0 : 1) + (Command.Count == 0 ? 0 : 1) + (From is null ? 0 : 1);
        if (targets != 1)
        {
            throw TplabException.Usage("watch needs one of: a process id, -n NAME, -- and a command, or --from FILE.jsonl: tplab watch PID | tplab watch -n NAME | tplab watch -- COMMAND ARGS | tplab watch --from FILE.jsonl");
        }
        if (EffectiveFormat.Terminal && Output is not null)
        {
            throw TplabException.Usage("--format live draws on the terminal; use --format jsonl, csv or html with --output");
        }
        if (All && Name is null)
        {
            throw TplabException.Usage("--all goes with -n NAME: tplab watch -n NAME --all (for several pids, list them: tplab watch PID PID...)");
        }
        if (EffectiveFormat.WrittenWhole && (All || ProcessIds.Count > 1))
        {
            throw TplabException.Usage("--format html draws one process; for several use jsonl (records carry the pid) or the live view");
        }
        if (From is not null && (Prometheus is not null || Otlp is not null))
        {
            throw TplabException.Usage("--prometheus and --otlp export a live watch, not a saved one (--from)");
        }
        if (Otlp is { } otlp && otlp.Scheme is not ("http" or "https"))
        {
            throw TplabException.Usage($"--otlp must be an http:// or https:// URL (e.g. http://127.0.0.1:4317), got '{otlp}'");
        }
        if (Service is { Length: 0 })
        {
            throw TplabException.Usage("--service cannot be empty");
        }
        Delay.Validated();
        if (Duration is { } d && d <= TimeSpan.Zero)
        {
            throw TplabException.Usage($"--duration must be more than zero, got {d}");
        }
        OnStarving?.Validate();
        return this;
    }
}
