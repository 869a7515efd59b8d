using System.Globalization;

namespace Tplab.Target.Infrastructure;

/// <summary>
/// Validates <c>?ms=</c> once for every route: a negative, non-numeric or too large wait gets
/// a 400 with a one-line reason before any handler runs.
/// </summary>
internal sealed class WaitParameterMiddleware(RequestDelegate next)
{
    /// <summary>Default wait when <c>ms</c> is absent, as in the seeds.</summary>
    public const int DefaultMs = 1000;

    /// <summary>Largest accepted wait: ten minutes, above any seed's wait and below any sane request timeout.</summary>
    public const int MaxMs = 600_000;

    private const string ItemKey = "tplab.ms";

    public async Task InvokeAsync(HttpContext context)
    {
        var raw = context.Request.Query["ms"];
        var ms = DefaultMs;
        if (raw.Count > 0)
        {
            var text = raw.ToString();
            if (!int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out ms))
            {
                await BadRequest(context, $"ms must be a whole number of milliseconds, got '{text}'");
                return;
            }
            if (ms < 0)
            {
                await BadRequest(context, $"ms must not be negative, got {ms}");
                return;
            }
            if (ms > MaxMs)
            {
                await BadRequest(context, $"ms must be at most {MaxMs}, got {ms}");
                return;
            }
        }
        context.Items[ItemKey] = ms;
        await next(context);
    }

    public static int Read(HttpContext context) =>
        context.Items.TryGetValue(ItemKey, out var value) && value is int ms ? ms : DefaultMs;

    private static Task BadRequest(HttpContext context, string reason)
    {
        context.Response.StatusCode = StatusCodes.Status400BadRequest;
        context.Response.ContentType = "text/plain; charset=utf-8";
        return context.Response.WriteAsync(reason + "\n");
    }
}
