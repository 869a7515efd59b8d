using System.Text.Json.Nodes;
using Tplab.Lab.Experiments;
using static Tplab.Lab.Plans.PlanReader;

namespace Tplab.Lab.Plans;

/// <summary>Reads the findings a plan checks: a scenario's <c>checks</c> and the plan's <c>watch</c> (docs/lab.md, "From a scan").</summary>
internal static class FindingChecks
{
    /// <summary>The fields of one finding, in the order the plan writer writes them.</summary>
    public static readonly string[] Fields = ["rule", "root", "userMethod", "blockingCall", "severity", "at"];

    public static IReadOnlyList<FindingCheck> ReadList(FieldReader r, JsonNode node, string at)
    {
        var list = node as JsonArray ?? throw r.Error(at, "must be a list of findings (rule, root, userMethod, blockingCall, severity, at)");
        return [.. list.Select((n, i) => Read(r, n as JsonObject ?? throw r.Error($"{at}[{i}]", "must be an object"), $"{at}[{i}]"))];
    }

    private static FindingCheck Read(FieldReader r, JsonObject o, string at)
    {
        r.OnlyKnown(o, at, Fields);
        string Required(string field) => r.String(o, at, field) is { Length: > 0 } s ? s : throw r.Error(Join(at, field), "is required");
        var severity = r.String(o, at, "severity") ?? "warning";
        if (severity is not ("error" or "warning" or "note"))
        {
            throw r.Error(Join(at, "severity"), $"must be error, warning or note, got '{severity}'");
        }
        return new FindingCheck(Required("rule"), Required("root"), Required("userMethod"), Required("blockingCall"), severity, r.String(o, at, "at"));
    }
}
