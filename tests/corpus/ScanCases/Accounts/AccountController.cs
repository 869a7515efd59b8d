using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Filters;

namespace ScanCases.Accounts;

public static class AccountServices
{
    public static IServiceCollection AddAccounts(this IServiceCollection services) =>
        services.AddSingleton<ResetTokens>().AddScoped<ResetThrottleFilter>().AddSingleton<NewsletterList>();
}

[ApiController]
[Route("api/account")]
public sealed class AccountController(ResetTokens tokens) : ControllerBase
{
    /// <summary>The link in the password-reset mail lands here.</summary>
    [HttpGet("reset/{token}")]
    [ServiceFilter(typeof(ResetThrottleFilter))]
    public IActionResult CheckResetToken(string token) =>
        tokens.IsValid(token) ? Ok(new { token, valid = true }) : NotFound();
}

/// <summary>Slows every reset-token check down, so guessing tokens takes too long to be worth it.</summary>
public sealed class ResetThrottleFilter : IActionFilter
{
    private static readonly TimeSpan Penalty = TimeSpan.FromMilliseconds(250);

    public void OnActionExecuting(ActionExecutingContext context) => Thread.Sleep(Penalty);

    public void OnActionExecuted(ActionExecutedContext context)
    {
    }
}

public sealed class ResetTokens
{
    public bool IsValid(string token) => token.Length == 32 && token.All(char.IsAsciiHexDigit);
}

[ApiController]
[Route("api/newsletter")]
public sealed class NewsletterController(NewsletterList list) : ControllerBase
{
    /// <summary>The sign-up form on the marketing site posts here (form-encoded).</summary>
    [HttpPost]
    [Consumes("application/x-www-form-urlencoded")]
    public IActionResult Subscribe()
    {
        var email = Request.Form["email"].ToString();
        return list.Add(email) ? Ok(new { email }) : BadRequest(new { error = "not an email address" });
    }
}

public sealed class NewsletterList
{
    private readonly HashSet<string> _emails = new(StringComparer.OrdinalIgnoreCase);

    public bool Add(string email)
    {
        if (!email.Contains('@', StringComparison.Ordinal))
        {
            return false;
        }
        lock (_emails)
        {
            _emails.Add(email);
        }
        return true;
    }
}
