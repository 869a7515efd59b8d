using System.Diagnostics;
using System.Globalization;

namespace Tplab.Target.Infrastructure;

/// <summary>
/// Stamps every response with <c>Server-Timing: handler;start=&lt;Unix epoch ms&gt;;dur=&lt;ms&gt;</c>: when a pool
/// thread first ran the request (this middleware is first in the pipeline) and how long until the response was
/// produced. A load generator subtracts it from its own timing to split a request into waiting for a thread, running
/// the handler, and the rest. It is the same five lines docs/load.md gives users for their own apps; nothing here is
/// specific to tplab's target.
/// </summary>
internal sealed class HandlerTimingMiddleware(RequestDelegate next)
{
    public Task InvokeAsync(HttpContext context)
    {
        var start = DateTimeOffset.UtcNow;
        var clock = Stopwatch.StartNew();
        context.Response.OnStarting(() =>
        {
            // Append, not set: the app (or a proxy) may add its own Server-Timing metrics.
            context.Response.Headers.Append("Server-Timing", string.Create(CultureInfo.InvariantCulture,
                $"handler;start={(start - DateTimeOffset.UnixEpoch).TotalMilliseconds:0.###};dur={clock.Elapsed.TotalMilliseconds:0.###}"));
            return Task.CompletedTask;
        });
        return next(context);
    }
}
