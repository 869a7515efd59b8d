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
/// (Start: method, path; EndpointMatched: Values; BeforeAction: Name, Type, Action, Template), read when first asked:
/// a busy service raises thousands of these, and only the requests that were held are ever looked at.
/// </summary>
public sealed record RequestEvent(RequestEventKind Kind, int ThreadId, double TimeMs, Guid Activity)
{
    private static readonly IReadOnlyDictionary<string, string> None = new Dictionary<string, string>();
    private readonly Lazy<IReadOnlyDictionary<string, string>>? _fields;

    public RequestEvent(RequestEventKind kind, int threadId, double timeMs, Guid activity, IReadOnlyDictionary<string, string> fields)
        : this(kind, threadId, timeMs, activity) => _fields = new(fields);

    public RequestEvent(RequestEventKind kind, int threadId, double timeMs, Guid activity, Func<IReadOnlyDictionary<string, string>> readFields)
        : this(kind, threadId, timeMs, activity) => _fields = new(readFields);

    /// <summary>The payload by name (empty for a Stop).</summary>
    public IReadOnlyDictionary<string, string> Fields => _fields?.Value ?? None;

    public string? Field(string name) => Fields.TryGetValue(name, out var value) && value.Length > 0 ? value : null;
}
