using System.Diagnostics.Tracing;
using System.Globalization;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;
using ShopApp.Corpus;
using Tplab.Diagnose.Capture;
using Tplab.Load;
using Tplab.Runtime;
using Tplab.Tests.Corpus;
using Tplab.Tests.Support;
using Xunit.Abstractions;

namespace Tplab.Bench.Corpus;

/// <summary>
/// What the TPL's task events would cost if diagnose recorded them to link a continuation's samples to its request
/// (keyword Tasks 0x2 and TaskTransfer 0x1 of System.Threading.Tasks.TplEventSource): events per second, trace bytes,
/// and the shop's throughput on a healthy async endpoint under 48 users (its upstream answering in 5 ms, so the CPU is
/// the limit and every request awaits), with diagnose's session and with it plus the task events, beside no session at
/// all. BENCHMARKS.md, "Answer time and cost".
/// </summary>
public sealed class TplEventsCost(ITestOutputHelper output)
{
    private static readonly TimeSpan Window = TimeSpan.FromSeconds(5);

    // System.Threading.Tasks.TplEventSource.
    private static readonly Guid TplGuid = new("2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5");

    [BenchFact]
    public async Task Bench_TplTaskEvents_EventsBytesAndThroughput()
    {
        var endpoint = ShopCorpus.Cases.Single(c => c.Case == "prices-live");
        await using var app = await ShopAppProcess.StartAsync(null, settings: new Dictionary<string, string> { ["Shop__UpstreamDelayMs"] = "5" });
        using var stop = new CancellationTokenSource();
        var load = LoadRunner.RunAsync(
            new LoadOptions { Url = app.Url(endpoint.Path), Concurrency = CorpusRun.Users, Duration = TimeSpan.FromSeconds(120), Timeout = TimeSpan.FromSeconds(30), InterruptGrace = TimeSpan.FromMilliseconds(200), KeepRecords = true },
            null,
            stop.Token);
        await Task.Delay(TimeSpan.FromSeconds(4));
        var windows = new List<(string Name, DateTimeOffset From, DateTimeOffset To, long Events, long Tpl, long Bytes)>();
        var tplProviders = DiagnoseProviders.All.Where(p => p.Name != DiagnoseProviders.Tpl)
            .Append(new EventPipeProvider(DiagnoseProviders.Tpl, EventLevel.Informational, DiagnoseProviders.TasksFlowActivityIds | 0x1 | 0x2))
            .ToList();
        for (var round = 0; round < 2; round++)
        {
            var from = DateTimeOffset.UtcNow;
            await Task.Delay(Window);
            windows.Add(("no session", from, DateTimeOffset.UtcNow, 0, 0, 0));
            windows.Add(await RecordAsync("diagnose's session", app.ProcessId, DiagnoseProviders.All));
            windows.Add(await RecordAsync("diagnose's session + TPL task events", app.ProcessId, tplProviders));
        }
        await stop.CancelAsync();
        var result = await load;
        foreach (var w in windows)
        {
            var done = result.Records.Count(r => r.Succeeded && result.StartedAt + r.End >= w.From && result.StartedAt + r.End < w.To);
            var seconds = (w.To - w.From).TotalSeconds;
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{w.Name}: {done / seconds:0} req/s; {w.Events / seconds:0} events/s ({w.Tpl / seconds:0} of them TPL's), {w.Bytes / seconds / 1e6:0.0} MB/s of trace"));
        }
        if (Environment.GetEnvironmentVariable(CorpusReport.Variable) is { Length: > 0 } path)
        {
            File.AppendAllText(path, string.Join("", windows.Select(w =>
            {
                var seconds = (w.To - w.From).TotalSeconds;
                var done = result.Records.Count(r => r.Succeeded && result.StartedAt + r.End >= w.From && result.StartedAt + r.End < w.To);
                return System.Text.Json.JsonSerializer.Serialize(new { tplCost = w.Name, reqPerSecond = Math.Round(done / seconds), eventsPerSecond = Math.Round(w.Events / seconds), tplPerSecond = Math.Round(w.Tpl / seconds), traceMBPerSecond = Math.Round(w.Bytes / seconds / 1e6, 1) }) + "\n";
            })));
        }
    }

    private static async Task<(string, DateTimeOffset, DateTimeOffset, long, long, long)> RecordAsync(string name, int processId, IReadOnlyList<EventPipeProvider> providers)
    {
        await using var connection = await RuntimeConnection.AttachAsync(processId, CancellationToken.None);
        var file = Path.Combine(Path.GetTempPath(), $"tplab-tplcost-{Guid.NewGuid():N}.nettrace");
        try
        {
            using var session = await connection.StartSessionAsync(new EventPipeSessionConfiguration(providers, 256, requestRundown: false, requestStackwalk: true), CancellationToken.None);
            var from = DateTimeOffset.UtcNow;
            await using (var stream = File.Create(file))
            {
                var copy = session.EventStream.CopyToAsync(stream);
                await Task.Delay(Window);
                await session.StopAsync(CancellationToken.None);
                await copy;
            }
            var to = DateTimeOffset.UtcNow;
            long events = 0, tpl = 0;
            using (var source = new EventPipeEventSource(file))
            {
                source.AllEvents += e =>
                {
                    events++;
                    tpl += e.ProviderName.Contains("Tpl", StringComparison.Ordinal) || e.ProviderGuid == TplGuid ? 1 : 0;
                };
                source.Process();
            }
            return (name, from, to, events, tpl, new FileInfo(file).Length);
        }
        finally
        {
            File.Delete(file);
        }
    }
}
