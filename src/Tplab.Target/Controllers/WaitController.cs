using Microsoft.AspNetCore.Mvc;
using Tplab.Target.Infrastructure;

namespace Tplab.Target.Controllers;

/// <summary>The in-process waits of seeds 000, 002 and 004.</summary>
[ApiController]
public sealed class WaitController : ControllerBase
{
    /// <summary>Blocks the pool thread for the whole wait.</summary>
    [HttpGet("/sleep")]
    public IActionResult Sleep()
    {
        var ms = WaitParameterMiddleware.Read(HttpContext);
        Thread.Sleep(ms);
        return Ok(new { variant = "sleep", ms });
    }

    /// <summary>Gives the pool thread back while it waits.</summary>
    [HttpGet("/delay")]
    public async Task<IActionResult> Delay()
    {
        var ms = WaitParameterMiddleware.Read(HttpContext);
        await Task.Delay(ms);
        return Ok(new { variant = "delay", ms });
    }

    /// <summary>Looks asynchronous but moves the blocking to another pool thread.</summary>
    [HttpGet("/task-run-sleep")]
    public async Task<IActionResult> TaskRunSleep()
    {
        var ms = WaitParameterMiddleware.Read(HttpContext);
        await Task.Run(() => Thread.Sleep(ms));
        return Ok(new { variant = "task-run-sleep", ms });
    }
}
