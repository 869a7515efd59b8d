using System.Globalization;
using Tplab.Lab.Experiments;
using Tplab.Lab.Seeds;
using Tplab.Watch.Verdicts;

namespace Tplab.Lab.Running;

/// <summary>
/// Computes an experiment's lessons and its notes. Every note comes from what this run measured; the only
/// background it adds is the seed's runtime as seed-figures.json records it.
/// </summary>
internal static class Lessons
{
    public static ExperimentResult Complete(Experiment experiment, IReadOnlyList<ScenarioResult> results, SeedFigures seeds)
    {
        // A plan's experiment has no seed, whatever it is called: only the seed experiments read seed figures.
        var seeded = experiment.Seeds.Count > 0;
        var byId = results.ToLookup(r => r.Scenario.Id, StringComparer.Ordinal);
        var lessons = experiment.Lessons.Select(l =>
        {
            var incomplete = Incomplete(l.Numerator, byId[l.Numerator]) ?? Incomplete(l.Denominator, byId[l.Denominator]);
            var ours = incomplete is null ? RatioSpread.Of(Means(byId[l.Numerator]), Means(byId[l.Denominator])) : null;
            var seed = seeded
                ? RatioSpread.Of(seeds.MeansMs(experiment.Name, l.Numerator), seeds.MeansMs(experiment.Name, l.Denominator))
                : null;
            return new LessonResult(l, ours, seed, ShapeRule.Compare(ours, seed, incomplete), incomplete);
        }).ToList();
        var observations = Injections(results, seeded ? seeds.Runtime(experiment.Name) : null)
            .Concat(lessons.Select(Sentence))
            .ToList();
        return new ExperimentResult(experiment, results, lessons, observations);
    }

    private const string NotRun = " was not run (not selected)";

    // With --repeat a scenario's result carries each run's mean (ScenarioResult.Runs): the spread is over those.
    private static List<double> Means(IEnumerable<ScenarioResult> runs) => [.. runs.SelectMany(r => r.RunMeansMs)];

    // A scenario cut short has a mean over the requests that finished, which leaves out the slowest: not comparable.
    private static string? Incomplete(string id, IEnumerable<ScenarioResult> runs)
    {
        var list = runs.ToList();
        if (list.Count == 0)
        {
            return id + NotRun;
        }
        // With --repeat, one run cut short is enough: the spread would mix whole and partial means.
        var cut = list.FirstOrDefault(r => r.Status != ScenarioStatus.Completed || r.MeanMs is null || r.Runs.Any(x => x.Status != ScenarioStatus.Completed));
        var status = cut?.Runs.FirstOrDefault(x => x.Status != ScenarioStatus.Completed)?.Status ?? cut?.Status;
        return cut is null ? null : cut.Scenario.Id + " " + status switch
        {
            ScenarioStatus.Interrupted => "was interrupted",
            ScenarioStatus.DeadlineReached => "stopped at its deadline",
            ScenarioStatus.Failed => "failed",
            _ => "had no finished request",
        };
    }

    private static IEnumerable<string> Injections(IReadOnlyList<ScenarioResult> results, SeedRuntime? seed)
    {
        var c = CultureInfo.InvariantCulture;
        foreach (var r in results.Where(r => r.Timeline is not null))
        {
            var t = r.Timeline!;
            var cooperative = t.InjectionCount(InjectionReason.CooperativeBlocking);
            var starvation = t.InjectionCount(InjectionReason.Starvation);
            if (cooperative > 0)
            {
                var seedSide = seed?.CooperativeBlocking switch
                {
                    false => $" The seed's runtime ({seed.Name}) had no such injection: it came with .NET 6.",
                    true => $" The seed's runtime ({seed.Name}) has it too.",
                    _ => "",
                };
                yield return string.Create(c, $"{r.Scenario.Label}: the runtime raised the thread goal {cooperative} times for threads blocked in a task wait (CooperativeBlocking injections).{seedSide}");
            }
            if (starvation > 0)
            {
                yield return string.Create(c, $"{r.Scenario.Label}: {starvation} Starvation injections — the gate thread added threads one at a time while work queued (pool {t.ThreadsStart} → {t.ThreadsPeak} threads, queue peak {t.QueuePeak}).");
            }
        }
    }

    private static string Sentence(LessonResult l)
    {
        var label = l.Lesson.Label;
        var here = l.OursSpread is { } o ? $"{o} here" : "no ratio here";
        var there = l.SeedSpread is { } s ? $", {s} in the seed" : "";
        var verdict = l.Match switch
        {
            ShapeMatch.Same => $"the same shape as the seed ({ShapeRule.Words(ShapeRule.SettledBand(l.OursSpread!)!.Value)})",
            ShapeMatch.Different => $"a different shape from the seed's (here {ShapeRule.Words(ShapeRule.SettledBand(l.OursSpread!)!.Value)}, in the seed {ShapeRule.Words(ShapeRule.SettledBand(l.SeedSpread!)!.Value)})",
            ShapeMatch.Unsettled => $"not settled: {Straddling(l)} on both sides of {ShapeRule.Threshold.ToString(CultureInfo.InvariantCulture)}×",
            ShapeMatch.NoSeed => $"{ShapeRule.Words(ShapeRule.Band(l.OursSpread!.Central))}; the seed printed no figure to compare",
            _ when l.Incomplete!.EndsWith(NotRun, StringComparison.Ordinal) => $"not compared: {l.Incomplete}",
            _ => $"not compared: {l.Incomplete}, so its mean leaves out part of the load",
        };
        return $"{label}: {here}{there} — {verdict}.";
    }

    private static string Straddling(LessonResult l) =>
        ShapeRule.SettledBand(l.SeedSpread!) is null
            ? (ShapeRule.SettledBand(l.OursSpread!) is null ? "both this run's repeats and the seed's runs fall" : "the seed's published runs fall")
            : "this run's repeats fall";
}
