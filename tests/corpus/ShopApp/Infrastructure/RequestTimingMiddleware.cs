using System.Diagnostics;

namespace ShopApp.Infrastructure;

/// <summary>Adds the time the shop spent on a request to the response. Fully async: it must never be blamed.</summary>
public sealed class RequestTimingMiddleware(RequestDelegate next, ILogger<RequestTimingMiddleware> logger)
{
    public async Task InvokeAsync(HttpContext context)
    {
        var started = Stopwatch.GetTimestamp();
        context.Response.OnStarting(() =>
        {
            context.Response.Headers["X-Shop-Elapsed-Ms"] = Stopwatch.GetElapsedTime(started).TotalMilliseconds.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture);
            return Task.CompletedTask;
        });
        await next(context);
        var elapsed = Stopwatch.GetElapsedTime(started);
        if (elapsed > TimeSpan.FromSeconds(10))
        {
            logger.LogWarning("slow request {Path}: {Elapsed} ms", context.Request.Path, elapsed.TotalMilliseconds);
        }
    }
}
