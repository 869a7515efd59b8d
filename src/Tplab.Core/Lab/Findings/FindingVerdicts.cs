using System.Globalization;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Watch.Verdicts;

namespace Tplab.Lab.Findings;

/// <summary>
/// Judges each static finding of a plan against what its scenario's run saw: confirmed when diagnose named the same
/// user method and blocking call, not reached when the requests never got to the code, else not seen under that load.
/// </summary>
public static class FindingVerdicts
{
    // A request reached the code when the service answered it with success (2xx, 3xx). Without a culprit, answers that
    // were all errors say why the code was not seen: 401/403 (authentication), 404/405 (no such route: the sample route
    // values did not match), 400 (the sample input was refused), 503 (a dependency is missing), or no answer at all.

    /// <summary>One result per finding of <paramref name="experiment"/>: its scenarios' checks (switched-off ones too), then the watched ones.</summary>
    public static IReadOnlyList<FindingResult> Of(ExperimentResult experiment)
    {
        ArgumentNullException.ThrowIfNull(experiment);
        var plan = experiment.Experiment;
        var results = new List<FindingResult>();
        foreach (var scenario in plan.Scenarios)
        {
            var ran = experiment.Scenarios.FirstOrDefault(r => r.Scenario.Id == scenario.Id);
            results.AddRange(scenario.Checks.Select(c => ran is null
                ? new FindingResult(c, false, scenario.Id, FindingState.NotRun, "not run: the run ended before this scenario", null, null, null, null)
                : Judge(c, ran)));
        }
        foreach (var off in plan.SwitchedOff)
        {
            var why = $"not run: switched off (enabled: false){(IsWrite(off) ? "; it sends a write (" + string.Join(", ", off.Requests.Select(r => r.Method).Distinct()) + "): tplab scan --plan-writes, or enabled: true, runs it" : "")}";
            results.AddRange(off.Checks.Select(c => new FindingResult(c, false, off.Id, FindingState.NotRun, why, null, null, null, null)));
        }
        results.AddRange(plan.Watch.Select(c => Watch(c, experiment.Scenarios)));
        return results;
    }

    /// <summary>Whether diagnose's <paramref name="culprit"/> names the finding's method and call, in the names scan and diagnose share.</summary>
    public static bool Names(Culprit culprit, FindingCheck check)
    {
        ArgumentNullException.ThrowIfNull(culprit);
        ArgumentNullException.ThrowIfNull(check);
        return culprit.BlockingCall == check.BlockingCall && Method(culprit.UserFrame) == Method(check.UserMethod);
    }

    private static FindingResult Judge(FindingCheck check, ScenarioResult r)
    {
        var (mean, p99, pool) = Figures(r);
        if (r.Culprits.Where(c => Names(c, check)).OrderByDescending(c => c.Threads).FirstOrDefault() is { } culprit)
        {
            var held = culprit.Threads.ToString("0.#", CultureInfo.InvariantCulture);
            return new(check, false, r.Scenario.Id, FindingState.Confirmed,
                $"diagnose named {culprit.BlockingCall} in {culprit.UserFrame} ({held} pool threads held)", culprit, mean, p99, pool);
        }
        if (Unreachable(r) is { } why)
        {
            return new(check, false, r.Scenario.Id, FindingState.NotReached, why, null, mean, p99, pool);
        }
        return new(check, false, r.Scenario.Id, FindingState.NotSeen, NotSeen(r), null, mean, p99, pool);
    }

    private static FindingResult Watch(FindingCheck check, IReadOnlyList<ScenarioResult> runs)
    {
        var named = runs.SelectMany(r => r.Culprits.Where(c => Names(c, check)).Select(c => (Run: r, Culprit: c))).OrderByDescending(x => x.Culprit.Threads).FirstOrDefault();
        if (named.Run is { } run)
        {
            var (mean, p99, pool) = Figures(run);
            var held = named.Culprit.Threads.ToString("0.#", CultureInfo.InvariantCulture);
            return new(check, true, run.Scenario.Id, FindingState.Confirmed,
                $"diagnose named {named.Culprit.BlockingCall} in {named.Culprit.UserFrame} ({held} pool threads held) under {run.Scenario.Id}'s load", named.Culprit, mean, p99, pool);
        }
        var loaded = runs.Where(r => r.Load is not null).ToList();
        if (loaded.Count == 0)
        {
            return new(check, true, null, FindingState.NotRun, "not run: no scenario's load ran", null, null, null, null);
        }
        var starved = loaded.Count(r => r.Timeline?.FirstStarving is not null || r.Culprits.Count > 0);
        return new(check, true, null, FindingState.NotSeen,
            string.Create(CultureInfo.InvariantCulture, $"watched under {loaded.Count} scenario(s)' load ({starved} with threads held): diagnose never named it"), null, null, null, null);
    }

    // Why the requests never got to the code, when none did; null when some did.
    private static string? Unreachable(ScenarioResult r)
    {
        if (r.Load is not { } load)
        {
            return r.Error is { } e ? $"not reached: {e}" : "not reached: the load did not start";
        }
        var s = load.Summary;
        var succeeded = s.StatusCodes.Where(kv => kv.Key is >= 200 and < 400).Sum(kv => kv.Value);
        if (s.Requests == 0 || succeeded > 0)
        {
            return null;
        }
        var c = CultureInfo.InvariantCulture;
        var parts = s.StatusCodes.Where(kv => kv.Key >= 400).OrderByDescending(kv => kv.Value)
            .Select(kv => string.Create(c, $"{kv.Key} {StatusWord(kv.Key)} on {kv.Value:#,0} of {s.Requests:#,0}")).ToList();
        if (s.TransportErrors > 0)
        {
            var error = s.Errors.OrderByDescending(e => e.Count).FirstOrDefault()?.Message ?? "no answer";
            parts.Add(string.Create(c, $"{error} on {s.TransportErrors:#,0} of {s.Requests:#,0}"));
        }
        return "not reached: " + string.Join("; ", parts);
    }

    private static string NotSeen(ScenarioResult r)
    {
        var pool = r.Timeline is { HasVerdict: true } t ? t.Verdict.ToWord() : null;
        var load = r.Scenario.Load.Describe();
        if (r.Culprits.Count > 0)
        {
            var top = r.Culprits.OrderByDescending(c => c.Threads).First();
            return $"not seen under {load}: diagnose named {top.BlockingCall} in {top.UserFrame} instead";
        }
        if (r.Status != ScenarioStatus.Completed && r.Error is { } error)
        {
            return $"not seen: {error}";
        }
        return pool is null
            ? $"not seen under {load}: the pool could not be watched, so diagnose did not run"
            : r.Timeline!.FirstStarving is not null
                ? $"not seen under {load}: the pool was {pool} (threads held from {DurationText.Format(r.Timeline.FirstStarving.Value)}), and diagnose named no application code blocking"
                : $"not seen under {load}: the pool stayed {pool}, so nothing held threads long enough to diagnose";
    }

    private static (double? Mean, double? P99, PoolVerdict? Pool) Figures(ScenarioResult r) =>
        (r.Load is { Summary.Requests: > 0 } l ? l.Summary.LatencyMs.Mean : null,
         r.Load is { Summary.Requests: > 0 } m ? m.Summary.LatencyMs.P99 : null,
         r.Timeline is { HasVerdict: true } t ? t.Verdict : null);

    private static bool IsWrite(Scenario s) => s.Requests.Any(r => r.Method is "POST" or "PUT" or "PATCH" or "DELETE");

    // Nested types are '+' in the runtime's names and '.' in the source's; generic arity is the runtime's alone.
    private static string Method(string name) => System.Text.RegularExpressions.Regex.Replace(name.Replace('+', '.'), "`[0-9]+", "");

    // "Service Unavailable" from ServiceUnavailable: the reason phrase as HTTP writes it.
    private static string StatusWord(int status) =>
        Enum.IsDefined((System.Net.HttpStatusCode)status)
            ? System.Text.RegularExpressions.Regex.Replace(((System.Net.HttpStatusCode)status).ToString(), "(?<=[a-z])(?=[A-Z])", " ")
            : "";
}
