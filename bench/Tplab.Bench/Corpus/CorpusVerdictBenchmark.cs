using System.Globalization;
using ShopApp.Corpus;
using Tplab.Postgres;
using Tplab.Tests.Corpus;
using Tplab.Tests.Support;
using Tplab.Watch;
using Tplab.Watch.Verdicts;
using Xunit.Abstractions;

namespace Tplab.Bench.Corpus;

/// <summary>
/// The pool verdict at the start of a load, measured on the corpus (bench/corpus-verdicts.sh; BENCHMARKS.md "The
/// verdict at the start of a load"): every healthy and every starving shop endpoint, ROUNDS times each, as the corpus
/// test runs it (fresh shop, 48 users, diagnose's 500 ms watch 1.5 s into the load). Each watch is judged live by the
/// rule as it is, and its samples are judged again by the rule as it was (<see cref="VerdictThresholds.QueueStanding"/>
/// zero: one sample of queue enough), so the two are compared on the same data.
/// </summary>
public sealed class CorpusVerdictBenchmark(ITestOutputHelper output)
{
    private static readonly CultureInfo C = CultureInfo.InvariantCulture;

    [BenchFact]
    public async Task Bench_Verdicts_HealthyNeverHeld_StarvingAsFast()
    {
        var rounds = int.Parse(Environment.GetEnvironmentVariable("TPLAB_VERDICT_ROUNDS") ?? "10", C);
        // The starving endpoints are many (22): fewer rounds of them still show how fast each is called starving.
        var starvingRounds = int.Parse(Environment.GetEnvironmentVariable("TPLAB_VERDICT_STARVING_ROUNDS") ?? rounds.ToString(C), C);
        var cases = ShopCorpus.Cases.Where(c => c.Pool is "healthy" or "starving").ToList();
        await using var postgres = PostgresBinaries.Find() is null ? null : await PrivatePostgres.StartAsync();
        var rows = new List<(ExpectedCulprit Case, Judged Now, Judged Before)>();
        for (var round = 0; round < rounds; round++)
        {
            foreach (var expected in cases.Where(c => (!c.NeedsDatabase || postgres is not null) && (c.Pool == "healthy" || round < starvingRounds)))
            {
                var outcome = await CorpusRun.RunAsync(expected, postgres?.ConnectionString);
                if (outcome.Diagnosis.Pool is not { Samples.Count: > 0 } timeline)
                {
                    output.WriteLine($"{expected.Case} round {round + 1}: no watch ({outcome.Diagnosis.PoolUnavailable})");
                    continue;
                }
                var now = Judged.Of(timeline.Samples.Select(s => s.Verdict).ToList(), timeline);
                var before = Judged.Of(Replay(timeline, VerdictThresholds.Default with { QueueStanding = TimeSpan.Zero }), timeline);
                rows.Add((expected, now, before));
                output.WriteLine(string.Create(C,
                    $"{expected.Case} round {round + 1}: now {now}; before {before}"));
            }
        }
        output.WriteLine("");
        output.WriteLine("| endpoint | declared | runs | held samples now (runs with any) | held before (runs with any) | first starving now, median | before, median |");
        output.WriteLine("|---|---|---:|---:|---:|---:|---:|");
        foreach (var group in rows.GroupBy(r => r.Case.Case))
        {
            var list = group.ToList();
            output.WriteLine(string.Create(C,
                $"| `{group.Key}` | {list[0].Case.Pool} | {list.Count} | {list.Sum(r => r.Now.Held)} ({list.Count(r => r.Now.Held > 0)}) | {list.Sum(r => r.Before.Held)} ({list.Count(r => r.Before.Held > 0)}) | {Median(list.Select(r => r.Now.FirstStarving))} | {Median(list.Select(r => r.Before.FirstStarving))} |"));
        }
    }

    /// <summary>The verdict of every sample of <paramref name="timeline"/> judged again under <paramref name="thresholds"/>, as the sampler would have.</summary>
    private static List<PoolVerdict> Replay(PoolTimeline timeline, VerdictThresholds thresholds)
    {
        var verdicts = new List<PoolVerdict>();
        TimeSpan? lastStarving = null;
        for (var i = 0; i < timeline.Samples.Count; i++)
        {
            var now = timeline.Samples[i];
            var from = now.Offset - thresholds.Lookback;
            var earlier = timeline.Samples.Take(i).Where(s => s.Offset >= from).Select(s => s.Reading).ToList();
            var injections = timeline.Injections.Where(j => j.Offset >= from && j.Offset <= now.Offset).ToList();
            var reading = now.Reading;
            var verdict = VerdictRule.Judge(new VerdictWindow(reading, earlier, injections, lastStarving is { } l ? now.Offset - l : null), thresholds).Verdict;
            if (verdict.ThreadsHeld())
            {
                lastStarving = now.Offset;
            }
            verdicts.Add(verdict);
        }
        return verdicts;
    }

    private static string Median(IEnumerable<double?> values)
    {
        var seen = values.OfType<double>().Order().ToList();
        return seen.Count == 0 ? "–" : seen[seen.Count / 2].ToString("0.00", C) + " s";
    }

    /// <summary>One watch's samples as judged: how many held threads, when the first starving one came.</summary>
    private sealed record Judged(int Held, double? FirstStarving, string Word)
    {
        public static Judged Of(IReadOnlyList<PoolVerdict> verdicts, PoolTimeline timeline)
        {
            var first = verdicts.Select((v, i) => (v, i)).FirstOrDefault(p => p.v == PoolVerdict.Starving);
            return new(verdicts.Count(v => v.ThreadsHeld()),
                first.v == PoolVerdict.Starving ? timeline.Samples[first.i].Offset.TotalSeconds : null,
                string.Join(' ', verdicts.Select(v => v.ToWord())));
        }

        public override string ToString() => string.Create(C, $"held {Held}, first starving {(FirstStarving is { } f ? f.ToString("0.00", C) + " s" : "none")} [{Word}]");
    }
}
