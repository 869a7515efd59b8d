using Microsoft.AspNetCore.Mvc;

namespace Shop.Web.Tests;

/// <summary>A stand-in partner API the integration tests host; it sleeps to look slow.</summary>
[ApiController]
[Route("fake-partner")]
public sealed class FakePartnerController : ControllerBase
{
    [HttpGet]
    public IActionResult Get()
    {
        Thread.Sleep(100);
        return Ok();
    }
}
