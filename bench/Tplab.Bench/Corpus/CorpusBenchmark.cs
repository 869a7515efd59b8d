using System.Globalization;
using ShopApp.Corpus;
using Tplab.Blocking;
using Tplab.Diagnose;
using Tplab.Load;
using Tplab.Postgres;
using Tplab.Processes;
using Tplab.Launch;
using Tplab.Tests.Corpus;
using Tplab.Tests.Support;
using Tplab.Watch.Sampling;
using Xunit.Abstractions;

namespace Tplab.Bench.Corpus;

/// <summary>
/// The corpus benchmark (bench/corpus.sh; BENCHMARKS.md "Diagnose on foreign apps"): every corpus endpoint with the
/// default 5 s capture, and one service with 1,000 pool threads blocked at once.
/// </summary>
public sealed class CorpusBenchmark(ITestOutputHelper output)
{
    private const int ThousandUsers = 1000;

    [BenchFact]
    public async Task Bench_Corpus_EveryEndpointWithA5sCapture()
    {
        var capture = TimeSpan.FromSeconds(double.Parse(Environment.GetEnvironmentVariable("TPLAB_CORPUS_CAPTURE") ?? "5", CultureInfo.InvariantCulture));
        await using var postgres = PostgresBinaries.Find() is null ? null : await PrivatePostgres.StartAsync();
        foreach (var expected in ShopCorpus.Cases)
        {
            if (expected.NeedsDatabase && postgres is null)
            {
                output.WriteLine($"{expected.Case}: skipped, no PostgreSQL");
                continue;
            }
            var outcome = await CorpusRun.RunAsync(expected, postgres?.ConnectionString, capture, dump: expected.Illness == Illness.Blocking);
            var differences = CorpusJudge.Differences(outcome);
            output.WriteLine(CorpusReport.Describe(outcome, differences));
            foreach (var difference in CorpusJudge.DumpDifferences(outcome))
            {
                output.WriteLine($"  dump: {difference}");
            }
            CorpusReport.Append(outcome, differences);
        }
    }

    /// <summary>
    /// Answer time of a 5 s capture while a healthy endpoint's load keeps both cores busy: 48 users on the shop's blocking
    /// prices endpoint and 64 on its health endpoint, five diagnoses in a row, each with where its time went.
    /// </summary>
    [BenchFact]
    public async Task Bench_AnswerTime_WhileAHealthyEndpointKeepsTheCoresBusy()
    {
        var prices = ShopCorpus.Cases.Single(c => c.Case == "prices-result");
        await using var app = await ShopAppProcess.StartAsync(null);
        using var stop = new CancellationTokenSource();
        Task<LoadResult> Load(string path, int users) => LoadRunner.RunAsync(
            new LoadOptions { Url = app.Url(path), Concurrency = users, Duration = TimeSpan.FromSeconds(90), Timeout = TimeSpan.FromSeconds(30), InterruptGrace = TimeSpan.FromMilliseconds(200), KeepRecords = false },
            null,
            stop.Token);
        var loads = new[] { Load(prices.Path, CorpusRun.Users), Load("/health", 64) };
        await Task.Delay(TimeSpan.FromSeconds(3));
        var lines = new List<string>();
        for (var round = 0; round < 5; round++)
        {
            var before = MachineCpu.Read();
            var diagnosis = await BlockingDiagnoser.DiagnoseAsync(app.ProcessId, new DiagnoseOptions { Duration = TimeSpan.FromSeconds(5) });
            var busy = MachineCpu.BusyPercent(before, MachineCpu.Read());
            var p = diagnosis.Phases!;
            lines.Add(string.Create(CultureInfo.InvariantCulture,
                $"answer {diagnosis.AnswerTime.TotalSeconds:0.0} s for a {diagnosis.CaptureDuration.TotalSeconds:0.0} s capture (rundown {p.Rundown.TotalSeconds:0.0} s, reading {p.Read.TotalSeconds:0.0} s, analysis {p.Analyse.TotalSeconds:0.0} s), machine busy {busy:0}%, {diagnosis.Evidence.Samples} samples, top {diagnosis.Culprits.FirstOrDefault()?.UserFrame?.DisplayName}"));
            output.WriteLine(lines[^1]);
        }
        await stop.CancelAsync();
        await Task.WhenAll(loads);
        if (Environment.GetEnvironmentVariable(CorpusReport.Variable) is { Length: > 0 } path)
        {
            File.AppendAllText(path, string.Join("", lines.Select(l => System.Text.Json.JsonSerializer.Serialize(new { busyAnswer = l }) + "\n")));
        }
    }

    /// <summary>
    /// The shape: 1,000 pool threads blocked at once and about 2,000 threads in all. 1,000 users stay on tplab's
    /// target's <c>/sleep?ms=30000</c>; beside them a wave of 1,000 one-off requests on <c>/sleep?ms=1500</c> makes the
    /// pool (minimum 2,050) create 1,000 more threads, which sit idle once the wave is over (the pool retires idle
    /// threads only after about 20 s). Known failure of other tools: empty output under such load.
    /// </summary>
    [BenchFact]
    public async Task Bench_ThousandBlockedPoolThreads_AnswerTimeAndCulprit()
    {
        await using var target = await TargetProcess.StartTargetAsync(new TargetOptions { ThreadPool = new ThreadPoolSettings { MinThreads = (2 * ThousandUsers) + 50 } });
        using var stop = new CancellationTokenSource();
        var load = LoadRunner.RunAsync(
            new LoadOptions
            {
                Url = target.Url("/sleep?ms=30000"),
                Concurrency = ThousandUsers,
                Duration = TimeSpan.FromSeconds(90),
                Timeout = TimeSpan.FromSeconds(60),
                InterruptGrace = TimeSpan.FromMilliseconds(200),
                KeepRecords = false,
            },
            null,
            stop.Token);
        var wave = await LoadRunner.RunAsync(
            new LoadOptions
            {
                Url = target.Url("/sleep?ms=1500"),
                Concurrency = ThousandUsers,
                Requests = ThousandUsers,
                Timeout = TimeSpan.FromSeconds(60),
                KeepRecords = false,
            },
            null,
            stop.Token);
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (ProcessFiles.OsThreads(target.ProcessId) < 2 * ThousandUsers && DateTime.UtcNow < deadline)
        {
            await Task.Delay(500);
        }
        var threads = ProcessFiles.OsThreads(target.ProcessId);
        var diagnosis = await BlockingDiagnoser.DiagnoseAsync(target.ProcessId, new DiagnoseOptions { Duration = TimeSpan.FromSeconds(5) });
        await stop.CancelAsync();
        await load;
        var top = diagnosis.Culprits.FirstOrDefault();
        var line = string.Create(CultureInfo.InvariantCulture,
            $"1000 blocked: OS threads {threads} (a wave of {wave.Summary.Succeeded} one-off requests made the idle ones), answered in {diagnosis.AnswerTime.TotalSeconds:0.0} s for a {diagnosis.CaptureDuration.TotalSeconds:0.0} s capture, top culprit {top?.BlockingCall.Name} in {top?.UserFrame?.FullName ?? "(no application frame)"} holding {top?.Threads:0} threads ({top?.DistinctThreads} different), pool {diagnosis.Pool?.Verdict}, samples {diagnosis.Evidence.Samples}");
        output.WriteLine(line);
        if (Environment.GetEnvironmentVariable(CorpusReport.Variable) is { Length: > 0 } path)
        {
            File.AppendAllText(path, System.Text.Json.JsonSerializer.Serialize(new { thousand = line }) + "\n");
        }
        Assert.NotNull(top);
    }
}
