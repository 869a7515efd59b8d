namespace ScanCases.Infrastructure;

/// <summary>Counts requests per route for the back office's dashboard.</summary>
public sealed class RequestStatsMiddleware(RequestDelegate next, RequestStats stats)
{
    public async Task InvokeAsync(HttpContext context)
    {
        await next(context);
        stats.Count(context.GetEndpoint()?.DisplayName ?? "unmatched", context.Response.StatusCode);
    }
}

public sealed class RequestStats
{
    private readonly Dictionary<string, int> _byEndpoint = new(StringComparer.Ordinal);
    private int _errors;

    public void Count(string endpoint, int status)
    {
        lock (_byEndpoint)
        {
            _byEndpoint[endpoint] = _byEndpoint.GetValueOrDefault(endpoint) + 1;
            if (status >= 500)
            {
                _errors++;
            }
        }
    }

    public object Snapshot()
    {
        lock (_byEndpoint)
        {
            return new { endpoints = new Dictionary<string, int>(_byEndpoint, StringComparer.Ordinal), errors = _errors };
        }
    }
}
