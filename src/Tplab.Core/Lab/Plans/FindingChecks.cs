using Tplab.Lab.Experiments;
using static Tplab.Lab.Plans.PlanReader;

namespace Tplab.Lab.Plans;

/// <summary>Reads the findings a plan checks: a scenario's <c>checks</c> and the plan's <c>watch</c> (docs/lab.md, "From a scan").</summary>
internal static class FindingChecks
{
    public static IReadOnlyList<FindingCheck> ReadList(FieldReader r, IReadOnlyList<PlanCheck?>? list, string at) =>
        [.. r.Items(list, at).Select((c, i) => Read(r, c, $"{at}[{i}]"))];

    private static FindingCheck Read(FieldReader r, PlanCheck o, string at)
    {
        r.OnlyKnown(o.Unknown?.Keys, at, Known.Check);
        string Required(string? value, string field) => value is { Length: > 0 } s ? s : throw r.Error(Join(at, field), "is required");
        var severity = o.Severity ?? "warning";
        if (severity is not ("error" or "warning" or "note"))
        {
            throw r.Error(Join(at, "severity"), $"must be error, warning or note, got '{severity}'");
        }
        return new FindingCheck(Required(o.Rule, "rule"), Required(o.Root, "root"), Required(o.UserMethod, "userMethod"), Required(o.BlockingCall, "blockingCall"), severity, o.At);
    }
}
