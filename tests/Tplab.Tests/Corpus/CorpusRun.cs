using ShopApp.Corpus;
using Tplab.Blocking;
using Tplab.Diagnose;
using Tplab.Load;
using Tplab.Watch.Verdicts;

namespace Tplab.Tests.Corpus;

/// <summary>What diagnose and watch said about one corpus endpoint under load, and the load's throughput meanwhile.</summary>
internal sealed record CorpusOutcome(ExpectedCulprit Expected, Diagnosis Diagnosis, double ThroughputDuringCapture)
{
    /// <summary>The whole machine's CPU use while diagnose ran (all cores, /proc/stat), in percent.</summary>
    public double MachineBusyPercent { get; init; }

    /// <summary>diagnose --dump of a dump taken right after the live capture, under the same load (benchmark only); null when not taken.</summary>
    public Diagnosis? Dump { get; init; }

    public string PoolWord => Diagnosis.Pool?.Verdict.ToWord() ?? "(no watch: " + Diagnosis.PoolUnavailable + ")";

    public BlockedStackGroup? Top => Diagnosis.Culprits.Count > 0 ? Diagnosis.Culprits[0] : null;

    /// <summary>diagnose's answer in one line: the top culprit, or "clear".</summary>
    public string Said => Top is { } top
        ? $"{top.BlockingCall.Name} in {top.UserFrame?.FullName ?? "(no application frame)"} ({top.Place}, {top.Endpoint?.ToString() ?? "no endpoint"}), {top.Threads:0.0} threads"
        : Diagnosis.Verdict == DiagnosisVerdict.CpuBound
            ? $"CPU-bound, hot: {(Diagnosis.HotMethods.Count > 0 ? Diagnosis.HotMethods[0].Method.FullName : "none")}"
            : "clear";
}

/// <summary>
/// One corpus case, as a user would meet it: a fresh shop process, many users on one endpoint (tplab's own load
/// engine, loopback, bounded), and diagnose run during the load; its pool watch is watch's verdict over the same window.
/// </summary>
internal static class CorpusRun
{
    /// <summary>Closed-loop users: far above a 2-core pool's minimum (2), so a blocking endpoint starves it.</summary>
    public const int Users = 48;

    /// <summary>Load before the capture: the pool starves and the hot methods reach Tier 1 meanwhile.</summary>
    public static readonly TimeSpan LoadBeforeCapture = TimeSpan.FromSeconds(1.5);

    public static readonly TimeSpan Capture = TimeSpan.FromSeconds(2.5);

    public static async Task<CorpusOutcome> RunAsync(ExpectedCulprit expected, string? connectionString, TimeSpan? capture = null, bool dump = false)
    {
        await using var app = await ShopAppProcess.StartAsync(connectionString);
        using (var http = new HttpClient { Timeout = TimeSpan.FromSeconds(30) })
        {
            // The host's own first request (routing, JSON) is JIT-compiled before the load, as in a service that has run a while;
            // the endpoint itself is not called, so a lazily built dependency is still cold.
            using var ready = await http.GetAsync(app.Url("/health"));
            ready.EnsureSuccessStatusCode();
        }

        using var stopLoad = new CancellationTokenSource();
        Task<IReadOnlyList<DateTimeOffset>> load = expected.Method == "POST"
            ? SlowBodyLoad.RunAsync(app.Url(expected.Path), Users, stopLoad.Token)
            : RunLoadAsync(app.Url(expected.Path), stopLoad.Token);
        try
        {
            await Task.Delay(LoadBeforeCapture);
            var captureStart = DateTimeOffset.UtcNow;
            var cpuBefore = MachineCpu.Read();
            var diagnosis = await BlockingDiagnoser.DiagnoseAsync(app.ProcessId, new DiagnoseOptions { Duration = capture ?? Capture });
            var busy = MachineCpu.BusyPercent(cpuBefore, MachineCpu.Read());
            var dumped = dump ? await DumpAsync(app.ProcessId) : null;
            await stopLoad.CancelAsync();
            var ends = await load;
            var captureEnd = captureStart + diagnosis.CaptureDuration;
            var completed = ends.Count(e => e >= captureStart && e < captureEnd);
            return new CorpusOutcome(expected, diagnosis, completed / Math.Max(0.001, diagnosis.CaptureDuration.TotalSeconds)) { MachineBusyPercent = busy, Dump = dumped };
        }
        finally
        {
            await stopLoad.CancelAsync();
            try
            {
                await load;
            }
            catch (Exception e) when (e is OperationCanceledException or HttpRequestException)
            {
            }
        }
    }

    /// <summary>A dump of the loaded process by the runtime's createdump, read by diagnose --dump; null without createdump.</summary>
    private static async Task<Diagnosis?> DumpAsync(int processId)
    {
        if (Tplab.Tests.Support.Preconditions.Createdump is not { } createdump)
        {
            return null;
        }
        var path = Path.Combine(Path.GetTempPath(), $"tplab-corpus-{processId}-{Guid.NewGuid():N}.dmp");
        try
        {
            var (exit, _) = await Tplab.Tests.Support.Preconditions.RunToolAsync(createdump, TimeSpan.FromSeconds(120), "-f", path, processId.ToString(System.Globalization.CultureInfo.InvariantCulture));
            return exit == 0 ? Tplab.Diagnose.Offline.DumpDiagnoser.Diagnose(path, new DiagnoseOptions()) : null;
        }
        finally
        {
            File.Delete(path);
        }
    }

    private static async Task<IReadOnlyList<DateTimeOffset>> RunLoadAsync(Uri url, CancellationToken ct)
    {
        var options = new LoadOptions
        {
            Url = url,
            Concurrency = Users,
            Duration = TimeSpan.FromSeconds(30),
            Timeout = TimeSpan.FromSeconds(20),
            InterruptGrace = TimeSpan.FromMilliseconds(200),
            KeepRecords = true, // the throughput during the capture is counted from them
        };
        var result = await LoadRunner.RunAsync(options, null, ct);
        return [.. result.Records.Where(r => r.Succeeded).Select(r => result.StartedAt + r.End)];
    }
}

/// <summary>The machine's CPU counters (/proc/stat's first line): busy and total jiffies, to say how loaded it was over a window.</summary>
internal static class MachineCpu
{
    public static (long Busy, long Total) Read()
    {
        var fields = File.ReadLines("/proc/stat").First().Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1)
            .Select(f => long.Parse(f, System.Globalization.CultureInfo.InvariantCulture)).ToArray();
        var idle = fields[3] + (fields.Length > 4 ? fields[4] : 0);
        var total = fields.Take(8).Sum();
        return (total - idle, total);
    }

    public static double BusyPercent((long Busy, long Total) before, (long Busy, long Total) after) =>
        after.Total > before.Total ? 100.0 * (after.Busy - before.Busy) / (after.Total - before.Total) : 0;
}
