using MediatR;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Filters;

namespace Shop.Web.Controllers;

[ApiController]
[Route("api/[controller]")]
public sealed class InvoicesController(IMediator mediator) : ControllerBase
{
    [HttpGet("{id:int}")]
    public IActionResult Get(int id)
    {
        var total = mediator.Send(new GetInvoiceTotal(id)).Result;
        return Ok(total);
    }

    [HttpPost]
    [TypeFilter(typeof(AuditFilter))]
    public IActionResult Post() => Ok();

    [HttpGet("/absolute/invoices")]
    public async Task<IActionResult> List()
    {
        await Task.Yield();
        return Ok();
    }
}

[Area("Admin")]
[Route("[area]/[controller]/[action]")]
public sealed class UsersController : Controller
{
    public IActionResult List()
    {
        Thread.Sleep(30);
        return Ok();
    }
}

public sealed class HomeController : Controller
{
    public IActionResult Index() => View();

    [HttpPost]
    public IActionResult Contact(string message)
    {
        using var process = System.Diagnostics.Process.Start("sendmail", message);
        process.WaitForExit();
        return Ok();
    }
}

/// <summary>Times every action (registered for all of them in Program.cs).</summary>
public sealed class GlobalTimingFilter : IActionFilter
{
    public void OnActionExecuting(ActionExecutingContext context)
    {
    }

    public void OnActionExecuted(ActionExecutedContext context)
    {
    }
}

/// <summary>Audits the writes it is applied to.</summary>
public sealed class AuditFilter : IAsyncActionFilter
{
    public async Task OnActionExecutionAsync(ActionExecutingContext context, ActionExecutionDelegate next)
    {
        var semaphore = new SemaphoreSlim(1, 1);
        semaphore.Wait();
        await next();
    }
}

public sealed record GetInvoiceTotal(int Id) : IRequest<decimal>;

public sealed class GetInvoiceTotalHandler : IRequestHandler<GetInvoiceTotal, decimal>
{
    public Task<decimal> Handle(GetInvoiceTotal request, CancellationToken cancellationToken)
    {
        using var client = new HttpClient();
        var response = client.Send(new HttpRequestMessage(HttpMethod.Get, "http://billing.internal/total/" + request.Id));
        return Task.FromResult((decimal)response.Content.Headers.ContentLength.GetValueOrDefault());
    }
}
