using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Filters;
using Npgsql;

namespace Tplab.Target.Infrastructure;

/// <summary>
/// Turns a failing dependency into a one-line status: downstream unreachable → 502,
/// downstream too slow → 504, database unreachable or not configured → 503.
/// </summary>
internal sealed class UpstreamErrorFilter : IExceptionFilter
{
    public void OnException(ExceptionContext context)
    {
        var error = context.Exception is AggregateException { InnerException: { } inner } ? inner : context.Exception;
        (int status, string reason)? mapped = error switch
        {
            HttpRequestException e => (502, $"downstream unreachable: {e.Message}"),
            TaskCanceledException when !context.HttpContext.RequestAborted.IsCancellationRequested
                => (504, "downstream did not answer within the request timeout"),
            DatabaseNotConfiguredException e => (503, e.Message),
            NpgsqlException e => (503, $"database unreachable: {OneLine(e)}"),
            InvalidOperationException e when e.Message.Contains("BaseAddress", StringComparison.Ordinal)
                => (502, "no downstream configured: start serve with --downstream URL"),
            _ => null,
        };
        if (mapped is not { } m)
        {
            return;
        }
        context.Result = new ContentResult { StatusCode = m.status, Content = m.reason + "\n", ContentType = "text/plain; charset=utf-8" };
        context.ExceptionHandled = true;
    }

    private static string OneLine(Exception e) =>
        (e.InnerException is { } inner ? $"{e.Message} ({inner.Message})" : e.Message).ReplaceLineEndings(" ");
}
