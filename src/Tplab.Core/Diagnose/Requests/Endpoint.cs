namespace Tplab.Diagnose.Requests;

/// <summary>
/// The endpoint of the requests a culprit held: the HTTP method and the route (the route template when ASP.NET Core
/// exposed it, else the path with its route values put back as <c>{name}</c>, else the raw path).
/// </summary>
/// <param name="Method">GET, POST, ...</param>
/// <param name="Route"><c>/orders/{id}</c>, or the path when no route values were seen.</param>
/// <param name="Action">The MVC action or Razor Page that ran it (from MVC's own event), or null (minimal API, middleware, not seen).</param>
public sealed record Endpoint(string Method, string Route, ActionName? Action)
{
    /// <summary><c>GET /orders/{id}</c>.</summary>
    public override string ToString() => $"{Method} {Route}";
}

/// <summary>An MVC action as MVC names it: the controller (or page) type's full name and the method.</summary>
public sealed record ActionName(string TypeName, string MethodName)
{
    public string FullName => TypeName + "." + MethodName;
}
