using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Graph;

namespace Tplab.Scan.Roots;

/// <summary>An HTTP endpoint as users name it: <c>GET /orders/{id:int}</c>. <c>ANY</c> when every method reaches it.</summary>
public sealed record HttpEndpoint(string Method, string Route)
{
    public override string ToString() => $"{Method} {Route}";
}

/// <summary>
/// Where requests (or the pool) enter the solution's code: an action, a handler, a middleware, a hosted service, a
/// timer, a factory... with the endpoint it serves when there is one. An entry point is its method (and, for an MVC
/// action, the concrete controller it runs on), never its route: two actions with one route stay two entry points.
/// </summary>
public sealed record EntryPoint(CodeNode Node, CodePlace Place, HttpEndpoint? Endpoint)
{
    /// <summary>For a middleware or filter: the paths or endpoints it guards, when the code shows them (empty: every request); for a hub method, the hub's route.</summary>
    public IReadOnlyList<string> Guards { get; init; } = [];

    /// <summary>
    /// For an MVC action: the concrete controller it runs on (an inherited action is an entry point of each controller
    /// that inherits it), the type a walk from it resolves <c>this</c>-calls on; null for other entry points.
    /// </summary>
    public INamedTypeSymbol? Controller { get; init; }

    /// <summary>For a dependency-injection factory: singleton, scoped or transient.</summary>
    public string? Lifetime { get; init; }

    /// <summary>For a dependency-injection factory: the service it builds (<c>IRatesProvider</c>).</summary>
    public string? Service { get; init; }

    /// <summary>For a framework callback: the options property the app's instance is set on (<c>CookieAuthenticationOptions.SessionStore</c>).</summary>
    public string? SetAs { get; init; }

    /// <summary>
    /// The root as a user names it, stable across edits (it is a baseline key): <c>GET /orders/{id}</c>, or the place and
    /// method (<c>middleware ShopApp.TenantMiddleware.InvokeAsync</c>).
    /// </summary>
    public string Key => Endpoint?.ToString()
        ?? (Place == CodePlace.DiFactory && Service is not null ? $"di-factory {Service}" : $"{PlaceWords.Id(Place)} {Node.FullName}");

    /// <summary>The root in words for the text report's heading.</summary>
    public string Title => Endpoint is { } e
        ? $"{e}  ({PlaceWords.Text(Place)} {Node.DisplayName})"
        : Place switch
        {
            CodePlace.Middleware => $"middleware {Node.DisplayName}, {GuardText}",
            CodePlace.Filter => $"MVC filter {Node.DisplayName}, {GuardText}",
            CodePlace.Hub => $"SignalR hub {Node.DisplayName}{(Guards.Count > 0 ? $" at {Guards[0]}" : "")}",
            CodePlace.DiFactory => $"{Lifetime ?? "service"} factory of {Service ?? "a service"} ({Node.DisplayName})",
            CodePlace.FrameworkCallback => $"framework callback {Node.DisplayName}, set as {SetAs}: the framework calls it while requests wait",
            _ => $"{PlaceWords.Text(Place)} {Node.DisplayName}",
        };

    /// <summary>"every request" or "requests to /legacy/*".</summary>
    public string GuardText => Guards.Count == 0
        ? (Place == CodePlace.Filter ? "on the actions it is applied to" : "every request passes it")
        : Place == CodePlace.Filter ? "on " + string.Join(", ", Guards) : "every request to " + string.Join(", ", Guards) + " passes it";

    public override string ToString() => Title;
}
