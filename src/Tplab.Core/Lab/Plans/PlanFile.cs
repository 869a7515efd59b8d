using System.Text.Json;
using System.Text.Json.Serialization;

namespace Tplab.Lab.Plans;

/// <summary>
/// A plan file as written (docs/lab.md), YAML or JSON: the one definition of the format. <see cref="PlanWriter"/> writes
/// these records (<see cref="PlanWriter.From"/>: from an experiment) and <see cref="PlanReader"/> reads them back, through
/// <see cref="PlanJsonContext"/> for both syntaxes (YAML through <see cref="PlanDocument"/>'s bounded tree). The records
/// hold what the file says, not yet checked: numbers as numbers or YAML's text, durations as text, every field optional;
/// the reader checks each one into the <see cref="Experiments.Experiment"/> and names the field and its line when it
/// cannot. Fields the records do not know land in <c>Unknown</c> and are refused by name: a plan is written by people,
/// and a misspelt field must not be skipped.
/// </summary>
internal sealed record PlanFile
{
    /// <summary>The plan's name: the results' folder (default: the file's name).</summary>
    public string? Name { get; init; }

    /// <summary>The user's own service; absent for tplab's built-in target.</summary>
    public PlanService? Service { get; init; }

    public IReadOnlyList<PlanScenario?>? Scenarios { get; init; }

    /// <summary>Variants × pool settings × loads of the built-in target.</summary>
    public PlanMatrix? Matrix { get; init; }

    /// <summary>Findings with no endpoint of their own, checked by watching the service under every scenario.</summary>
    public IReadOnlyList<PlanCheck?>? Watch { get; init; }

    [JsonExtensionData]
    public Dictionary<string, JsonElement>? Unknown { get; set; }
}

/// <summary>A plan's <c>service</c>: how to start (or find) the user's service.</summary>
internal sealed record PlanService
{
    public string? Command { get; init; }

    /// <summary>Relative to the plan's folder.</summary>
    public string? WorkingDirectory { get; init; }

    [JsonConverter(typeof(PlanMapConverter))]
    public IReadOnlyDictionary<string, string>? Environment { get; init; }

    public string? Url { get; init; }

    public double? Pid { get; init; }

    public string? Ready { get; init; }

    [JsonConverter(typeof(PlanDurationConverter))]
    public string? StartTimeout { get; init; }

    /// <summary>runtimeconfig, environment or setting.</summary>
    public string? MinThreadsVia { get; init; }

    public string? MinThreadsSetting { get; init; }

    public double? WarmUp { get; init; }

    [JsonExtensionData]
    public Dictionary<string, JsonElement>? Unknown { get; set; }
}

/// <summary>
/// One scenario: of the built-in target (<c>variant</c>, <c>waitMs</c>) or of the user's service (<c>requests</c>,
/// <c>enabled</c>, <c>checks</c>); the reader refuses the fields of the other kind.
/// </summary>
internal sealed record PlanScenario
{
    public string? Id { get; init; }

    /// <summary>Written only as <c>false</c>: a scenario switched off.</summary>
    public bool? Enabled { get; init; }

    public string? Variant { get; init; }

    public double? WaitMs { get; init; }

    /// <summary>Each a request, or a bare path (short for a GET of it).</summary>
    [JsonConverter(typeof(PlanRequestsConverter))]
    public IReadOnlyList<PlanRequest?>? Requests { get; init; }

    public double? MinThreads { get; init; }

    [JsonConverter(typeof(PlanMapConverter))]
    public IReadOnlyDictionary<string, string>? Knobs { get; init; }

    public PlanLoad? Load { get; init; }

    [JsonConverter(typeof(PlanDurationConverter))]
    public string? Deadline { get; init; }

    public IReadOnlyList<PlanCheck?>? Checks { get; init; }

    [JsonExtensionData]
    public Dictionary<string, JsonElement>? Unknown { get; set; }
}

/// <summary>One request of a scenario's mix.</summary>
internal sealed record PlanRequest
{
    public string? Method { get; init; }

    public string? Path { get; init; }

    [JsonConverter(typeof(PlanMapConverter))]
    public IReadOnlyDictionary<string, string>? Headers { get; init; }

    public string? Body { get; init; }

    /// <summary>Relative to the plan's folder; read only (the writer writes <c>body</c>).</summary>
    public string? BodyFile { get; init; }

    public double? Weight { get; init; }

    public string? Name { get; init; }

    [JsonExtensionData]
    public Dictionary<string, JsonElement>? Unknown { get; set; }
}

/// <summary>A load: closed loop (<c>concurrency</c>) or open (<c>rate</c>), ended by requests, loops or duration.</summary>
internal sealed record PlanLoad
{
    /// <summary>closed or open (default: open when <c>rate</c> is given).</summary>
    public string? Model { get; init; }

    public double? Rate { get; init; }

    public double? Concurrency { get; init; }

    public double? Requests { get; init; }

    public double? Loops { get; init; }

    [JsonConverter(typeof(PlanDurationConverter))]
    public string? RampUp { get; init; }

    [JsonConverter(typeof(PlanDurationConverter))]
    public string? Duration { get; init; }

    /// <summary><c>MIN..MAX</c>.</summary>
    public string? Think { get; init; }

    [JsonConverter(typeof(PlanDurationConverter))]
    public string? Timeout { get; init; }

    [JsonExtensionData]
    public Dictionary<string, JsonElement>? Unknown { get; set; }
}

/// <summary>A plan's <c>matrix</c>: every variant × every <c>minThreads</c> × every load.</summary>
internal sealed record PlanMatrix
{
    public IReadOnlyList<string?>? Variants { get; init; }

    public double? WaitMs { get; init; }

    /// <summary>null in the list: the runtime's default.</summary>
    public IReadOnlyList<double?>? MinThreads { get; init; }

    public IReadOnlyList<PlanLoad?>? Loads { get; init; }

    [JsonExtensionData]
    public Dictionary<string, JsonElement>? Unknown { get; set; }
}

/// <summary>A scan finding a scenario (or the watch) checks at run time.</summary>
internal sealed record PlanCheck
{
    public string? Rule { get; init; }

    public string? Root { get; init; }

    public string? UserMethod { get; init; }

    public string? BlockingCall { get; init; }

    /// <summary>error, warning or note (default warning).</summary>
    public string? Severity { get; init; }

    public string? At { get; init; }

    [JsonExtensionData]
    public Dictionary<string, JsonElement>? Unknown { get; set; }
}
