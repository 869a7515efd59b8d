using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.SignalR;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Npgsql;

namespace Shop.Web.Infrastructure;

public sealed class ChatHub : Hub
{
    private static readonly ManualResetEventSlim Ready = new(false);

    public async Task Send(string message)
    {
        Ready.Wait();
        await Clients.All.SendAsync("message", message);
    }
}

public sealed class CartSummaryViewComponent : ViewComponent
{
    public IViewComponentResult Invoke()
    {
        var count = File.ReadAllLines("/var/shop/cart.txt").Length;
        return Content(count.ToString(System.Globalization.CultureInfo.InvariantCulture));
    }
}

/// <summary>Signs every call to the partner.</summary>
public sealed class SigningHandler : DelegatingHandler
{
    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        request.Headers.Add("X-Signature", KeyVault.SecretAsync().Result);
        return await base.SendAsync(request, cancellationToken);
    }
}

public static class KeyVault
{
    public static async Task<string> SecretAsync()
    {
        await Task.Delay(5);
        return "secret";
    }
}

public sealed class DatabaseHealthCheck(NpgsqlDataSource dataSource) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        using var connection = dataSource.CreateConnection();
        connection.Open();
        return Task.FromResult(HealthCheckResult.Healthy());
    }
}

public sealed class RegionRequirement : IAuthorizationRequirement;

public sealed class RegionHandler : AuthorizationHandler<RegionRequirement>
{
    protected override Task HandleRequirementAsync(AuthorizationHandlerContext context, RegionRequirement requirement)
    {
        Thread.Sleep(5);
        context.Succeed(requirement);
        return Task.CompletedTask;
    }
}

[Microsoft.AspNetCore.Components.Route("/clock")]
public sealed class Clock : ComponentBase
{
    protected override void OnInitialized() => Thread.Sleep(1000);
}
