using Microsoft.AspNetCore.Mvc;
using Tplab.Target.Infrastructure;

namespace Tplab.Target.Controllers;

/// <summary>Calls to the downstream service, blocking (seed 000/001's <c>.Result</c>) and awaited.</summary>
[ApiController]
public sealed class HttpController(IHttpClientFactory clients) : ControllerBase
{
    /// <summary>Sync over async: the pool thread waits on the task.</summary>
    [HttpGet("/http-result")]
    public IActionResult HttpResult()
    {
        var ms = WaitParameterMiddleware.Read(HttpContext);
        using var response = clients.CreateClient("downstream").GetAsync(PathFor(ms)).Result;
        return Ok(new { variant = "http-result", ms, downstreamStatus = (int)response.StatusCode });
    }

    /// <summary>The await form of the same call.</summary>
    [HttpGet("/http-async")]
    public async Task<IActionResult> HttpAsync()
    {
        var ms = WaitParameterMiddleware.Read(HttpContext);
        using var response = await clients.CreateClient("downstream").GetAsync(PathFor(ms));
        return Ok(new { variant = "http-async", ms, downstreamStatus = (int)response.StatusCode });
    }

    private static Uri PathFor(int ms) => new($"/wait?ms={ms}", UriKind.Relative);
}
