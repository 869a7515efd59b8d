using System.Collections.Concurrent;
using System.Text;

namespace ShopApp.Reports;

public static class ReportServices
{
    public static IServiceCollection AddReports(this IServiceCollection services) =>
        services.AddSingleton<ReportService>().AddSingleton<ExportService>();
}

public sealed record Report(string Name, int Rows, DateTimeOffset BuiltAt);

/// <summary>Reports are rendered by a licensed engine that allows two renders at a time.</summary>
public sealed class ReportService
{
    private readonly SemaphoreSlim _renderSlots = new(2, 2);

    public async Task<Report> BuildAsync(string name, CancellationToken ct)
    {
        _renderSlots.Wait(ct);
        try
        {
            await Task.Delay(200, ct);
            return new Report(name, 120, DateTimeOffset.UtcNow);
        }
        finally
        {
            _renderSlots.Release();
        }
    }
}

/// <summary>Exports are produced by a worker thread; the request waits for its file.</summary>
public sealed class ExportService : IDisposable
{
    private readonly BlockingCollection<ExportJob> _jobs = [];

    public ExportService()
    {
        var worker = new Thread(Work) { IsBackground = true, Name = "export worker" };
        worker.Start();
    }

    public byte[] Export(int id)
    {
        using var job = new ExportJob(id);
        _jobs.Add(job);
        job.Done.WaitOne();
        return job.Content!;
    }

    public void Dispose() => _jobs.CompleteAdding();

    private void Work()
    {
        foreach (var batch in Batches())
        {
            Thread.Sleep(300);
            foreach (var job in batch)
            {
                job.Content = Encoding.UTF8.GetBytes($"id,total\n{job.Id},42.50\n");
                job.Done.Set();
            }
        }
    }

    private IEnumerable<List<ExportJob>> Batches()
    {
        foreach (var first in _jobs.GetConsumingEnumerable())
        {
            var batch = new List<ExportJob> { first };
            while (_jobs.TryTake(out var more))
            {
                batch.Add(more);
            }
            yield return batch;
        }
    }

    private sealed class ExportJob(int id) : IDisposable
    {
        public int Id { get; } = id;

        public ManualResetEvent Done { get; } = new(false);

        public byte[]? Content { get; set; }

        public void Dispose() => Done.Dispose();
    }
}
