using System.Security.Cryptography;
using System.Text;

namespace ScanCases.Webhooks;

public sealed record PspEvent(string Type, int OrderId);

public static class WebhookEndpoints
{
    public static void MapWebhooks(this IEndpointRouteBuilder app) =>
        app.MapPost("/api/webhooks/psp", async (HttpRequest request, CancellationToken ct) =>
        {
            var notice = await request.ReadFromJsonAsync<PspEvent>(ct);
            return notice is null ? Results.BadRequest() : Results.Ok(new { received = notice.Type, notice.OrderId });
        });

    /// <summary>The PSP's settlement notices: parsed, and kept verbatim for the accountants.</summary>
    public static void MapPspNotices(this IEndpointRouteBuilder app) =>
        app.MapPost("/api/psp/notices", async (HttpRequest request, CancellationToken ct) =>
        {
            request.EnableBuffering();
            var notice = await request.ReadFromJsonAsync<PspEvent>(ct);
            request.Body.Position = 0;
            var verbatim = SignatureVerifier.RawText(request);
            return notice is null ? Results.BadRequest() : Results.Ok(new { received = notice.Type, bytes = verbatim.Length });
        });
}

/// <summary>The PSP signs each webhook with HMAC-SHA256 over the raw body; unsigned calls are refused.</summary>
public sealed class WebhookSignatureMiddleware(RequestDelegate next)
{
    private static readonly byte[] Secret = Encoding.UTF8.GetBytes("psp-webhook-secret");

    public async Task InvokeAsync(HttpContext context)
    {
        context.Request.EnableBuffering();
        if (!SignatureVerifier.IsSigned(context.Request, Secret))
        {
            context.Response.StatusCode = StatusCodes.Status401Unauthorized;
            return;
        }
        context.Request.Body.Position = 0;
        await next(context);
    }
}

public static class SignatureVerifier
{
    public static bool IsSigned(HttpRequest request, byte[] secret)
    {
        var body = ReadBody(request.Body);
        var expected = Convert.ToHexString(HMACSHA256.HashData(secret, body));
        return string.Equals(request.Headers["X-Signature"].ToString(), expected, StringComparison.OrdinalIgnoreCase);
    }

    public static string RawText(HttpRequest request)
    {
        using var reader = new StreamReader(request.Body, Encoding.UTF8, leaveOpen: true);
        return reader.ReadToEnd();
    }

    private static byte[] ReadBody(Stream body)
    {
        using var reader = new StreamReader(body, Encoding.UTF8, leaveOpen: true);
        return Encoding.UTF8.GetBytes(reader.ReadToEnd());
    }
}
