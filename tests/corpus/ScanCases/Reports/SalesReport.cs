using System.Collections.Concurrent;

namespace ScanCases.Reports;

/// <summary>Sales totals per channel, summed over the in-memory sales shards in parallel.</summary>
public sealed class SalesReport
{
    private static readonly string[] Channels = ["web", "app", "box office", "resale"];
    private readonly (string Channel, decimal[] Sales)[] _shards =
        [.. Enumerable.Range(0, 16).Select(s => (Channels[s % Channels.Length], Enumerable.Range(0, 50_000).Select(i => (i * 7 + s) % 120 + 0.5m).ToArray()))];

    public IReadOnlyDictionary<string, decimal> Build()
    {
        var totals = new ConcurrentDictionary<string, decimal>(StringComparer.Ordinal);
        Parallel.ForEach(_shards, shard =>
        {
            var total = shard.Sales.Sum();
            totals.AddOrUpdate(shard.Channel, total, (_, sum) => sum + total);
        });
        return totals;
    }
}
