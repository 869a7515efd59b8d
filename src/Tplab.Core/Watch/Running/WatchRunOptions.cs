using Tplab.Common;
using Tplab.Watch.Output;
using Tplab.Watch.Verdicts;

namespace Tplab.Watch.Running;

/// <summary>One <c>tplab watch</c> run: what to watch, how often, for how long, where the records go and what to do on starvation.</summary>
public sealed record WatchRunOptions
{
    /// <summary>A process to attach to; or <see cref="Name"/>, or <see cref="Command"/>.</summary>
    public int? ProcessId { get; init; }

    /// <summary>A process to find by name (<c>-n</c>): exactly one .NET process of this user must match.</summary>
    public string? Name { get; init; }

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
        var targets = (ProcessId is null ? 0 : 1) + (Name is null ? 0 : 1) + (Command.Count == 0 ? 0 : 1) + (From is null ? 0 : 1);
        if (targets != 1)
        {
            throw TplabException.Usage("watch needs one of: a process id, -n NAME, -- and a command, or --from FILE.jsonl: tplab watch PID | tplab watch -n NAME | tplab watch -- COMMAND ARGS | tplab watch --from FILE.jsonl");
        }
        if (EffectiveFormat.Terminal && Output is not null)
        {
            throw TplabException.Usage("--format live draws on the terminal; use --format jsonl, csv or html with --output");
        }
        if (Duration is { } d && d <= TimeSpan.Zero)
        {
            throw TplabException.Usage($"--duration must be more than zero, got {d}");
        }
        OnStarving?.Validate();
        return this;
    }
}
