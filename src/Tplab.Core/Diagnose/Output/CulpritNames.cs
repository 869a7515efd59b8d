using Tplab.Blocking;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose.Output;

/// <summary>The words both reports use for a culprit, so text and JSON never disagree.</summary>
public static class CulpritNames
{
    /// <summary>Said when no application method is known: no frame on the stack and no event naming it.</summary>
    public const string NoApplicationFrame = "(no application frame)";

    /// <summary>The culprit's method as a developer searches for it, with where it was inlined when it was.</summary>
    public static string Who(BlockedStackGroup c) => c.UserFrame switch
    {
        null when c.InlinedInto is { } into => $"{NoApplicationFrame}: the {(c.Place == CodePlace.Middleware ? "middleware's" : "endpoint's")} code was inlined into {into}",
        null => NoApplicationFrame,
        { InlinedInto: { } into } u => $"{u.DisplayName} (inlined into {into})",
        { } u => u.DisplayName,
    };

    /// <summary><c>OrdersController.Get → OrderService.Load → PriceClient.GetPrice</c>.</summary>
    public static string Chain(BlockedStackGroup c) => string.Join(" → ", c.Chain.Select(m => m.DisplayName));

    /// <summary>The verdict word for JSON.</summary>
    public static string VerdictId(DiagnosisVerdict verdict) => verdict switch
    {
        DiagnosisVerdict.Blocked => "blocked",
        DiagnosisVerdict.CpuBound => "cpu-bound",
        _ => "clear",
    };
}
