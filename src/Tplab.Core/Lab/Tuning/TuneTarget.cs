using System.Globalization;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Lab.Plans;
using Tplab.Launch.Service;
using Tplab.Load;

namespace Tplab.Lab.Tuning;

/// <summary>
/// What <c>tplab tune</c> loads, as the user names it: tplab's target on a variant with a load of the options
/// (<c>--variant sleep -c 100 -n 200</c>), or a scenario of a plan naming the user's service (<c>--plan --scenario</c>).
/// <see cref="Resolve"/> turns it into the scenario the trials replay, or a usage error naming the option.
/// </summary>
public sealed record TuneTarget
{
    /// <summary>tplab's target: the variant (route) to tune, e.g. <c>sleep</c>; a leading '/' is allowed.</summary>
    public string? Variant { get; init; }

    /// <summary>The variant's wait (<c>?ms=</c>), 0 to 600,000. Default 1,000.</summary>
    public int WaitMs { get; init; } = 1000;

    /// <summary>Closed loop: users. Default 1.</summary>
    public int Concurrency { get; init; } = 1;

    /// <summary>Closed loop: total requests of each trial.</summary>
    public int? Requests { get; init; }

    /// <summary>How long each trial sends.</summary>
    public TimeSpan? Duration { get; init; }

    /// <summary>Open loop: requests per second (with <see cref="Duration"/>).</summary>
    public double? Rate { get; init; }

    /// <summary>A plan naming the user's service; with <see cref="ScenarioId"/>.</summary>
    public string? PlanPath { get; init; }

    /// <summary>The plan's scenario whose requests and load are replayed.</summary>
    public string? ScenarioId { get; init; }

    /// <summary>Longest one trial may run, above 0 and at most 24 h. Default 2 min.</summary>
    public TimeSpan TrialDeadline { get; init; } = TimeSpan.FromMinutes(2);

    /// <summary>The scenario each trial replays and the user's service (null for tplab's target); a usage error names the first bad option.</summary>
    public (Scenario Scenario, ServiceDefinition? Service) Resolve()
    {
        if (TrialDeadline <= TimeSpan.Zero || TrialDeadline > TimeSpan.FromHours(24))
        {
            throw TplabException.Usage($"--trial-deadline must be above 0 and at most 24h, got {DurationText.Format(TrialDeadline)}");
        }
        if (PlanPath is { } plan)
        {
            if (Variant is not null)
            {
                throw TplabException.Usage("give --variant (tplab's target) or --plan (your service), not both");
            }
            var id = ScenarioId ?? throw TplabException.Usage("--plan needs --scenario ID: the scenario to tune");
            var experiment = PlanReader.Read(plan);
            var scenario = experiment.Scenarios.FirstOrDefault(s => s.Id == id)
                ?? throw TplabException.Usage(experiment.SwitchedOff.Any(s => s.Id == id)
                    ? $"--scenario {id}: switched off in {plan} (enabled: false); switch it on to tune it"
                    : $"--scenario {id}: not in {plan} (scenarios: {string.Join(", ", experiment.Scenarios.Select(s => s.Id))})");
            return (scenario with { Deadline = TrialDeadline }, experiment.Service);
        }
        if (ScenarioId is not null)
        {
            throw TplabException.Usage("--scenario goes with --plan FILE");
        }
        var v = Variant?.TrimStart('/') ?? throw TplabException.Usage("give --variant NAME (tplab's target) or --plan FILE --scenario ID (your service)");
        if (!Variants.All.Contains(v, StringComparer.Ordinal))
        {
            throw TplabException.Usage($"--variant: unknown variant '{Variant}' (one of: {string.Join(", ", Variants.All)})");
        }
        if (WaitMs is < 0 or > 600_000)
        {
            throw TplabException.Usage(string.Create(CultureInfo.InvariantCulture, $"--wait-ms must be from 0 to 600000, got {WaitMs}"));
        }
        return (new Scenario { Experiment = "tune", Id = "tune", Variant = v, WaitMs = WaitMs, Deadline = TrialDeadline, Load = Load() }, null);
    }

    private LoadProfile Load()
    {
        var c = CultureInfo.InvariantCulture;
        if (Concurrency is < 1 or > LoadOptions.MaxConcurrency)
        {
            throw TplabException.Usage(string.Create(c, $"--concurrency must be between 1 and {LoadOptions.MaxConcurrency}, got {Concurrency}"));
        }
        if (Requests is < 1)
        {
            throw TplabException.Usage(string.Create(c, $"--requests must be at least 1, got {Requests}"));
        }
        if (Duration is { } d && (d <= TimeSpan.Zero || d > TimeSpan.FromHours(24)))
        {
            throw TplabException.Usage($"--duration must be above 0 and at most 24h, got {DurationText.Format(d)}");
        }
        if (Rate is double perSecond)
        {
            if (perSecond <= 0 || perSecond > LoadOptions.MaxRate)
            {
                throw TplabException.Usage(string.Create(c, $"--rate must be above 0 and at most {LoadOptions.MaxRate} per second, got {perSecond}"));
            }
            return Duration is null
                ? throw TplabException.Usage("--rate needs --duration: how long each trial sends")
                : new LoadProfile { Model = LoadModel.Open, Rate = perSecond, Duration = Duration };
        }
        return Requests is null && Duration is null
            ? throw TplabException.Usage("say how long each trial loads: -n/--requests or --duration")
            : new LoadProfile { Concurrency = Concurrency, Requests = Requests, Duration = Duration };
    }
}
