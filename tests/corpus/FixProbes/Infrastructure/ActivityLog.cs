using System.Collections.Concurrent;
using System.Globalization;

namespace FixProbes.Infrastructure;

/// <summary>What the desk did (reservations, archives, notifications sent), for the operations page: one counter per event.</summary>
public sealed class ActivityLog
{
    private readonly ConcurrentDictionary<string, int> _counts = new(StringComparer.Ordinal);

    public void Record(string what) => _counts.AddOrUpdate(what, 1, (_, n) => n + 1);

    public string Snapshot() =>
        string.Join('\n', _counts.OrderBy(c => c.Key, StringComparer.Ordinal).Select(c => string.Create(CultureInfo.InvariantCulture, $"{c.Key}={c.Value}")));
}
