using Microsoft.AspNetCore.Mvc;
using ShopApp.Corpus;

namespace ShopApp.Accounts;

[ApiController]
[Route("api/accounts")]
[ServiceFilter(typeof(AuditFilter))]
public sealed class AccountsController : ControllerBase
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("accounts-filter", "GET", "/api/accounts/8", "api/accounts/{id}",
            "Accounts.AuditLog.Record", "Task.Wait", Place.Filter)
            with
            {
                Chain =
                [
                    new("AuditFilter.OnActionExecuting", "Accounts/AuditFilter.cs", "audit.Record(context.HttpContext"),
                    new("AuditLog.Record", "Accounts/AuditFilter.cs", "write.Wait();"),
                ],
            },
    ];

    [HttpGet("{id:int}")]
    public async Task<ActionResult<Account>> Get(int id, CancellationToken ct)
    {
        await Task.Yield();
        ct.ThrowIfCancellationRequested();
        return new Account(id, $"customer{id}@example.com");
    }
}

public sealed record Account(int Id, string Email);
