using System.Text.Json.Serialization;
using Tplab.Common.Json;
using Tplab.Lab.Findings;
using Tplab.Watch.Verdicts;

namespace Tplab.Lab.Results;

/// <summary>A static finding (from <c>tplab scan --plan</c>) beside what the run saw: summary.json's <c>experiments[].findings</c>.</summary>
public sealed record FindingJson
{
    /// <summary>The scan's rule id (the blocking kind).</summary>
    public string Rule { get; init; } = "";

    /// <summary>The root as the scan keys it (<c>GET /orders/{id:int}</c>).</summary>
    public string Root { get; init; } = "";

    public string UserMethod { get; init; } = "";

    public string BlockingCall { get; init; } = "";

    /// <summary>error, warning or note.</summary>
    public string Severity { get; init; } = "";

    /// <summary><c>file:line</c> of the blocking call, relative to the scanned folder.</summary>
    public string? At { get; init; }

    /// <summary>True for a finding with no endpoint (hosted service, timer, DI factory), checked by watching the service under the plan's load.</summary>
    public bool Watched { get; init; }

    /// <summary>The scenario that checked it; null for a watched finding no scenario's culprit named.</summary>
    public string? Scenario { get; init; }

    /// <summary>confirmed, notSeen, notReached or notRun.</summary>
    public string State { get; init; } = "";

    /// <summary>Why, in one line: the culprit diagnose named, or why the code was not reached or not seen.</summary>
    public string Reason { get; init; } = "";

    /// <summary>The runtime culprit that names the same method and call; null unless confirmed.</summary>
    public CulpritJson? Culprit { get; init; }

    public double? MeanMs { get; init; }

    public double? P99Ms { get; init; }

    /// <summary>The pool's verdict over the scenario.</summary>
    [JsonConverter(typeof(WordConverter<PoolVerdict>))]
    public PoolVerdict? Pool { get; init; }

    /// <summary>The JSON of <paramref name="f"/>.</summary>
    public static FindingJson From(FindingResult f)
    {
        ArgumentNullException.ThrowIfNull(f);
        var c = f.Check;
        return new()
        {
            Rule = c.Rule, Root = c.Root, UserMethod = c.UserMethod, BlockingCall = c.BlockingCall, Severity = c.Severity, At = c.At,
            Watched = f.Watched, Scenario = f.Scenario, State = Words.Camel(f.State), Reason = f.Reason,
            Culprit = f.Culprit is { } k ? CulpritJson.From(k) : null,
            MeanMs = f.MeanMs, P99Ms = f.P99Ms, Pool = f.Pool,
        };
    }
}
