using System.Text.Json.Serialization.Metadata;

namespace Tplab.Lab.Plans;

/// <summary>The fields each plan record knows, as its serializer names them: the list an "unknown field" error gives.</summary>
internal static class Known
{
    public static readonly string[] Plan = Names(PlanJsonContext.Plans.PlanFile);
    public static readonly string[] Service = Names(PlanJsonContext.Plans.PlanService);
    public static readonly string[] Request = Names(PlanJsonContext.Plans.PlanRequest);
    public static readonly string[] Load = Names(PlanJsonContext.Plans.PlanLoad);
    public static readonly string[] Matrix = Names(PlanJsonContext.Plans.PlanMatrix);
    public static readonly string[] Check = Names(PlanJsonContext.Plans.PlanCheck);

    // A scenario of the built-in target has a variant; one of the user's service has requests.
    private static readonly string[] ServiceOnly = ["enabled", "requests", "checks"];
    private static readonly string[] TargetOnly = ["variant", "waitMs"];
    public static readonly string[] TargetScenario = [.. Names(PlanJsonContext.Plans.PlanScenario).Except(ServiceOnly)];
    public static readonly string[] ServiceScenario = [.. Names(PlanJsonContext.Plans.PlanScenario).Except(TargetOnly)];

    /// <summary>The fields of <paramref name="s"/> that are not the scenario's kind's: those it does not know, then those of the other kind.</summary>
    public static IEnumerable<string> Given(PlanScenario s, bool service)
    {
        var other = service
            ? new (string Name, bool Given)[] { ("variant", s.Variant is not null), ("waitMs", s.WaitMs is not null) }
            : [("enabled", s.Enabled is not null), ("requests", s.Requests is not null), ("checks", s.Checks is not null)];
        return (s.Unknown?.Keys ?? Enumerable.Empty<string>()).Concat(other.Where(f => f.Given).Select(f => f.Name));
    }

    private static string[] Names(JsonTypeInfo type) => [.. type.Properties.Where(p => !p.IsExtensionData).Select(p => p.Name)];
}
