using System.Collections.Concurrent;
using FixProbes.Infrastructure;

namespace FixProbes.Notifications;

public sealed class NotificationQueue
{
    private readonly ConcurrentQueue<string> _pending = new();

    public string Enqueue(string to)
    {
        _pending.Enqueue(to);
        return "queued for " + to;
    }

    public bool TryTake(out string to) => _pending.TryDequeue(out to!);
}

/// <summary>Sends queued notifications, polling the queue.</summary>
public sealed class NotificationSender(NotificationQueue queue, ActivityLog activity) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        await Task.Yield();
        while (!stoppingToken.IsCancellationRequested)
        {
            while (queue.TryTake(out var to))
            {
                activity.Record("notified " + to);
            }
            Thread.Sleep(20);
        }
    }
}
