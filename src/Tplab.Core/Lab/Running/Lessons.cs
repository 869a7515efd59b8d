using System.Globalization;
using Tplab.Lab.Experiments;
using Tplab.Lab.Seeds;
using Tplab.Watch.Verdicts;

namespace Tplab.Lab.Running;

/// <summary>Computes an experiment's lessons and says, from what was measured, where .NET 10 differs from the seed.</summary>
internal static class Lessons
{
    public static ExperimentResult Complete(Experiment experiment, IReadOnlyList<ScenarioResult> results, SeedFigures seeds)
    {
        var byId = results.ToDictionary(r => r.Scenario.Id, StringComparer.Ordinal);
        var lessons = experiment.Lessons.Select(l => new LessonResult(
            l,
            Ratio(byId.GetValueOrDefault(l.Numerator)?.MeanMs, byId.GetValueOrDefault(l.Denominator)?.MeanMs),
            Ratio(seeds.FigureOrMidRange(experiment.Name, l.Numerator, "meanMs"), seeds.FigureOrMidRange(experiment.Name, l.Denominator, "meanMs")))).ToList();
        return new ExperimentResult(experiment, results, lessons, Observations(experiment, results, lessons).ToList());
    }

    private static IEnumerable<string> Observations(Experiment experiment, IReadOnlyList<ScenarioResult> results, IReadOnlyList<LessonResult> lessons)
    {
        var c = CultureInfo.InvariantCulture;
        foreach (var r in results.Where(r => r.Timeline is not null))
        {
            var t = r.Timeline!;
            var cooperative = t.InjectionCount(InjectionReason.CooperativeBlocking);
            var starvation = t.InjectionCount(InjectionReason.Starvation);
            if (cooperative > 0)
            {
                yield return string.Create(c, $"{r.Scenario.Label}: the runtime raised the thread goal {cooperative} times for threads blocked in a task wait (CooperativeBlocking, .NET 6+); the seeds' runtimes (.NET Core 3.1, .NET Framework 4.8) had no such injection.");
            }
            if (starvation > 0)
            {
                yield return string.Create(c, $"{r.Scenario.Label}: {starvation} Starvation injections — the gate thread added threads one at a time while work queued (pool {t.ThreadsStart} → {t.ThreadsPeak} threads, queue peak {t.QueuePeak}).");
            }
        }
        foreach (var l in lessons.Where(l => l.Ours is not null))
        {
            var slower = l.Ours >= SlowerRatio;
            var verdict = l.Seed is not double seed ? (slower ? "the first is clearly slower" : "little difference")
                : slower == seed >= SlowerRatio ? "the same shape as the seed"
                : "a different shape from the seed's: see the runtime notes";
            yield return string.Create(c, $"{l.Lesson.Label}: {l.Ours:0.0}× here{(l.Seed is double s ? $", {s:0.0}× in the seed" : "")} — {verdict}.");
        }
    }

    /// <summary>A ratio at or above this counts as "clearly slower" when comparing shapes with the seed.</summary>
    private const double SlowerRatio = 1.5;

    private static double? Ratio(double? top, double? bottom) => top is double t && bottom is double b && b > 0 ? t / b : null;
}
