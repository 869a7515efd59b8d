using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose.Output;

/// <summary>The words both reports use for a culprit, so text and JSON never disagree.</summary>
public static class CulpritNames
{
    /// <summary>Said when no application method is known: no frame on the stack and no event naming it.</summary>
    public const string NoApplicationFrame = "(no application frame)";

    /// <summary><c>mvc-action</c>, <c>minimal-api</c>, ... for JSON.</summary>
    public static string PlaceId(CodePlace place) => place switch
    {
        CodePlace.MvcAction => "mvc-action",
        CodePlace.MinimalApi => "minimal-api",
        CodePlace.Middleware => "middleware",
        CodePlace.Filter => "filter",
        CodePlace.RazorPage => "razor-page",
        CodePlace.Hub => "hub",
        CodePlace.HostedService => "hosted-service",
        CodePlace.Timer => "timer",
        _ => "unknown",
    };

    /// <summary>The place in words, for the text report.</summary>
    public static string PlaceText(CodePlace place) => place switch
    {
        CodePlace.MvcAction => "MVC action",
        CodePlace.MinimalApi => "minimal API endpoint",
        CodePlace.Middleware => "middleware",
        CodePlace.Filter => "MVC filter",
        CodePlace.RazorPage => "Razor Page",
        CodePlace.Hub => "SignalR hub",
        CodePlace.HostedService => "hosted service",
        CodePlace.Timer => "timer callback",
        _ => "unknown place",
    };

    /// <summary><c>sleep</c>, <c>sync-over-async</c>, ... for JSON.</summary>
    public static string KindId(BlockingKind kind) => kind switch
    {
        BlockingKind.Sleep => "sleep",
        BlockingKind.SyncOverAsync => "sync-over-async",
        BlockingKind.Lock => "lock",
        BlockingKind.SyncWait => "sync-wait",
        BlockingKind.SyncDatabaseIO => "sync-database-io",
        BlockingKind.SyncHttp => "sync-http",
        BlockingKind.SyncSocketIO => "sync-socket-io",
        BlockingKind.SyncStreamIO => "sync-stream-io",
        BlockingKind.Unrecognised => "unrecognised-wait",
        _ => kind.ToString(),
    };

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
