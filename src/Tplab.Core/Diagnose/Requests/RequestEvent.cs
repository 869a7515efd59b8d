namespace Tplab.Diagnose.Requests;

/// <summary>Which of ASP.NET Core's own events a <see cref="RequestEvent"/> is.</summary>
public enum RequestEventKind
{
    /// <summary>Microsoft.AspNetCore.Hosting RequestStart: method and path, raised where Kestrel starts the request.</summary>
    Start,

    /// <summary>Microsoft.AspNetCore.Hosting RequestStop.</summary>
    Stop,

    /// <summary>DiagnosticListener Microsoft.AspNetCore.Routing.EndpointMatched: the route values of the matched endpoint.</summary>
    EndpointMatched,

    /// <summary>DiagnosticListener Microsoft.AspNetCore.Mvc.BeforeAction: the MVC action or Razor Page about to run.</summary>
    BeforeAction,
}

/// <summary>
/// One of ASP.NET Core's request events, with the thread and time it was raised on and the activity id that
/// follows the request across threads (TPL's TasksFlowActivityIds). Fields hold the payload by name
/// (Start: method, path; EndpointMatched: Values; BeforeAction: Name, Type, Action, Template).
/// </summary>
public sealed record RequestEvent(RequestEventKind Kind, int ThreadId, double TimeMs, Guid Activity, IReadOnlyDictionary<string, string> Fields)
{
    public string? Field(string name) => Fields.TryGetValue(name, out var value) && value.Length > 0 ? value : null;
}
