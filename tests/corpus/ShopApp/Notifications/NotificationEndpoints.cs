using System.Threading.Channels;
using ShopApp.Corpus;

namespace ShopApp.Notifications;

public static class NotificationEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("notifications-background", "GET", "/api/notifications/send?to=7", "/api/notifications/send",
            "Notifications.SmtpRelay.Send", "Thread.Sleep", Place.BackgroundService)
            with
            {
                Chain =
                [
                    new("NotificationDispatcher.ExecuteAsync (lambda)", "Notifications/NotificationEndpoints.cs", "_ = Task.Run(() => Deliver(notification), stoppingToken);"),
                    new("NotificationDispatcher.Deliver", "Notifications/NotificationEndpoints.cs", "relay.Send($\"customer-"),
                    new("SmtpRelay.Send", "Notifications/NotificationEndpoints.cs", "Thread.Sleep(400);"),
                ],
                RunsIn = "task-run",
            },
    ];

    public static IServiceCollection AddNotifications(this IServiceCollection services) =>
        services
            .AddSingleton(Channel.CreateBounded<Notification>(new BoundedChannelOptions(10_000) { FullMode = BoundedChannelFullMode.DropOldest }))
            .AddSingleton<SmtpRelay>()
            .AddHostedService<NotificationDispatcher>();

    public static void MapNotifications(this IEndpointRouteBuilder app) =>
        app.MapGet("/api/notifications/send", async (int to, Channel<Notification> queue, CancellationToken ct) =>
        {
            await queue.Writer.WriteAsync(new Notification(to, "Your order has shipped"), ct);
            return Results.Accepted();
        });
}

public sealed record Notification(int CustomerId, string Text);

/// <summary>Sends queued notifications, each on its own task so one slow mail server does not hold up the others.</summary>
public sealed class NotificationDispatcher(Channel<Notification> queue, SmtpRelay relay, ILogger<NotificationDispatcher> logger) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            await foreach (var notification in queue.Reader.ReadAllAsync(stoppingToken))
            {
                _ = Task.Run(() => Deliver(notification), stoppingToken);
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    private void Deliver(Notification notification)
    {
        try
        {
            relay.Send($"customer-{notification.CustomerId}@example.com", notification.Text);
        }
        catch (IOException e)
        {
            logger.LogWarning(e, "could not notify customer {Customer}", notification.CustomerId);
        }
    }
}

/// <summary>The mail relay rate-limits connections; the client waits out its back-off.</summary>
public sealed class SmtpRelay
{
    public void Send(string to, string text)
    {
        Thread.Sleep(400);
        GC.KeepAlive(to + text);
    }
}
