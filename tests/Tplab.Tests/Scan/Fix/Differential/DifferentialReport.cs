using System.Text.RegularExpressions;

namespace Tplab.Tests.Scan.Fix.Differential;

/// <summary>One behaviour change: the endpoint, the request as sent and what each build answered or did.</summary>
internal sealed record Difference(string Endpoint, string Request, string Before, string After)
{
    public override string ToString() => $"{Endpoint}: {Request}\n    before: {Before}\n    after:  {After}";
}

/// <summary>What the harness found on one app: the fix, both builds, the endpoints called and every difference.</summary>
internal sealed record DifferentialReport(
    string App,
    int FixExitCode,
    string FixOutput,
    IReadOnlyList<FixedFinding> Findings,
    BuildOutcome Before,
    BuildOutcome After,
    IReadOnlyList<string> EndpointsCalled,
    IReadOnlyList<Difference> Differences,
    int RequestsSent,
    TimeSpan Elapsed)
{
    /// <summary>The endpoints ("GET /route") that reach a fixed or partly fixed finding.</summary>
    public IReadOnlyList<string> FixedEndpoints =>
        [.. Findings.Where(f => f.Status != "refused").SelectMany(f => f.Roots).Where(IsEndpoint).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal)];

    /// <summary>Fixed endpoints ("GET /orders/{id:int}") no request called ("GET /orders/7?x=1"): a fix the harness did not check.</summary>
    public IReadOnlyList<string> FixedEndpointsNotCalled => [.. FixedEndpoints.Where(e => !EndpointsCalled.Any(c => Matches(e, c)))];

    private static bool IsEndpoint(string root) => Regex.IsMatch(root, "^[A-Z]+ /");

    // The route template as a pattern: a parameter is one segment, a catch-all the rest; the query is not the route's.
    private static bool Matches(string endpoint, string request)
    {
        var (method, template) = (endpoint[..endpoint.IndexOf(' ', StringComparison.Ordinal)], endpoint[(endpoint.IndexOf(' ', StringComparison.Ordinal) + 1)..]);
        var pattern = "^" + string.Concat(Regex.Split(template, @"(\{[^{}]*\})").Select(part =>
            part.StartsWith("{*", StringComparison.Ordinal) ? ".*" : part.StartsWith('{') ? "[^/]+" : Regex.Escape(part))) + "/?$";
        var path = request[(request.IndexOf(' ', StringComparison.Ordinal) + 1)..].Split('?')[0];
        return request.StartsWith(method + " ", StringComparison.Ordinal) && Regex.IsMatch(path, pattern, RegexOptions.IgnoreCase);
    }
}
