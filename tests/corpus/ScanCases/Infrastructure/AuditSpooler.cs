using System.Collections.Concurrent;

namespace ScanCases.Infrastructure;

/// <summary>
/// Writes the audit trail to a local spool file from a thread of its own, so requests only enqueue; the log shipper
/// picks the file up. The thread is the spooler's, not the pool's.
/// </summary>
public sealed class AuditSpooler : IDisposable
{
    private readonly BlockingCollection<string> _lines = new(boundedCapacity: 10_000);
    private readonly string _path = Path.Combine(Path.GetTempPath(), $"box-office-audit-{Environment.ProcessId}.log");

    public AuditSpooler()
    {
        var writer = new Thread(Pump) { IsBackground = true, Name = "audit spooler" };
        writer.Start();
    }

    public void Record(string line) => _lines.TryAdd($"{DateTimeOffset.UtcNow:O} {line}");

    public void Dispose() => _lines.CompleteAdding();

    private void Pump()
    {
        foreach (var line in _lines.GetConsumingEnumerable())
        {
            File.AppendAllText(_path, line + Environment.NewLine);
            // The shipper reads the spool in batches; give it a moment between writes.
            Thread.Sleep(5);
        }
    }
}
