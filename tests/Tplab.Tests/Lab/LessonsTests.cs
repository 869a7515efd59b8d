using Tplab.Lab.Experiments;
using Tplab.Lab.Running;
using Tplab.Lab.Seeds;
using Tplab.Tests.Support;
using static Tplab.Tests.Support.FakeScenarios;

namespace Tplab.Tests.Lab;

/// <summary>Lessons and notes come from the run's figures and the seed's data, never from a sentence written in advance.</summary>
[ParallelSafe]
public sealed class LessonsTests
{
    private static readonly SeedFigures Seeds = SeedFigures.Load();

    private static Experiment Seed(string name) => SeedExperiments.All(LabProfile.Quick).Single(e => e.Name == name);

    [Fact]
    public void AbHundred_SleepMuchSlower_SameShapeAsTheSeed()
    {
        var r = Lessons.Complete(Seed("ab-100"), [Result("ab-100", "sleep", 6000), Result("ab-100", "sleep-min100", 1000)], Seeds);
        var l = r.Lessons[0];
        Assert.Equal(6.0, l.Ours!.Value, 3);
        Assert.Equal(11975.0 / 1066, l.Seed!.Value, 3);
        Assert.Equal(ShapeMatch.Same, l.Match);
        Assert.Contains("Thread.Sleep: default pool vs 100 minimum threads (mean): 6.0× here, 11.2× in the seed — the same shape as the seed (the first clearly slower).", r.Observations);
    }

    [Fact]
    public void AbHundred_NoDifferenceHere_SaysDifferentShape_WhateverTheSeedSaid()
    {
        var r = Lessons.Complete(Seed("ab-100"), [Result("ab-100", "http-result", 1100), Result("ab-100", "http-async", 1000)], Seeds);
        var l = r.Lessons.Single(x => x.Lesson.Numerator == "http-result" && x.Lesson.Denominator == "http-async");
        Assert.Equal(ShapeMatch.Different, l.Match);
        Assert.Contains(r.Observations, o => o.StartsWith(".Result vs await on HttpClient (mean): 1.1× here, 55.5× in the seed — a different shape", StringComparison.Ordinal));
        // and no sentence predicts how /http-result compares with the seed's 65.7 s
        Assert.DoesNotContain(r.Observations.Concat(r.Experiment.RuntimeNotes), n => n.Contains("far faster", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData(ScenarioStatus.DeadlineReached, "sleep stopped at its deadline")]
    [InlineData(ScenarioStatus.Interrupted, "sleep was interrupted")]
    [InlineData(ScenarioStatus.Failed, "sleep failed")]
    public void IncompleteScenario_IsNotCompared_AndTheNoteSaysWhy(ScenarioStatus status, string why)
    {
        var r = Lessons.Complete(Seed("jmeter-1000"), [Result("jmeter-1000", "sleep", 9000, status), Result("jmeter-1000", "delay", 1000)], Seeds);
        var l = r.Lessons[0];
        Assert.Equal(ShapeMatch.NotCompared, l.Match);
        Assert.Null(l.Ours);
        Assert.Equal(why, l.Incomplete);
        Assert.Contains(r.Observations, o => o.Contains($"not compared: {why}", StringComparison.Ordinal));
    }

    [Fact]
    public void ScenarioNotRun_IsNotCompared()
    {
        var r = Lessons.Complete(Seed("jmeter-1000"), [Result("jmeter-1000", "delay", 1000)], Seeds);
        Assert.Equal(ShapeMatch.NotCompared, r.Lessons[0].Match);
        Assert.Equal("sleep was not run (not selected)", r.Lessons[0].Incomplete);
        Assert.Contains("Thread.Sleep vs await Task.Delay (mean): no ratio here, 1.7–2.4× in the seed — not compared: sleep was not run (not selected).", r.Observations);
    }

    [Fact]
    public void JMeter_SeedRatio_ComesFromItsFiveRuns_NotTheMidpointOfARange()
    {
        var r = Lessons.Complete(Seed("jmeter-1000"), [Result("jmeter-1000", "task-run-sleep", 1200), Result("jmeter-1000", "delay", 1000)], Seeds);
        var l = r.Lessons.Single(x => x.Lesson.Numerator == "task-run-sleep");
        Assert.Equal(ShapeMatch.Unsettled, l.Match);
        Assert.Equal(3081.0 / 3205, l.SeedSpread!.Low, 6);
        Assert.Equal(6990.0 / 3189, l.SeedSpread.High, 6);
        Assert.Contains(r.Observations, o => o.Contains("1.2× here, 1.0–2.2× in the seed — not settled: the seed's published runs fall on both sides of 1.5×", StringComparison.Ordinal));
    }

    [Fact]
    public void Repeats_AreAllUsed()
    {
        var r = Lessons.Complete(Seed("vegeta-50"),
            [Result("vegeta-50", "sleep", 1400), Result("vegeta-50", "sleep", 2200), Result("vegeta-50", "delay", 1000), Result("vegeta-50", "delay", 1000)], Seeds);
        var l = r.Lessons[0];
        Assert.Equal(1.4, l.OursSpread!.Low, 6);
        Assert.Equal(2.2, l.OursSpread.High, 6);
        Assert.Equal(ShapeMatch.NoSeed, l.Match); // seed 004 printed no mean for Thread.Sleep
    }

    [Theory]
    // the seed's runtime decides the second sentence: 3.1 and 4.8 had no such injection, ASP.NET Core 8 has it, 004 does not say
    [InlineData("ab-100", "http-result", " The seed's runtime (ASP.NET Core 3.1) had no such injection: it came with .NET 6.")]
    [InlineData("siege-db", "db-wait", " The seed's runtime (ASP.NET Core 8) has it too.")]
    [InlineData("vegeta-50", "sleep", "")]
    public void CooperativeBlocking_Note_IsTruePerSeed(string experiment, string id, string seedSentence)
    {
        var r = Lessons.Complete(Seed(experiment), [Result(experiment, id, 2000, cooperative: 7)], Seeds);
        var note = Assert.Single(r.Observations, o => o.Contains("CooperativeBlocking", StringComparison.Ordinal));
        Assert.Equal($"{id}: the runtime raised the thread goal 7 times for threads blocked in a task wait (CooperativeBlocking injections).{seedSentence}", note);
    }

    [Fact]
    public void NoInjections_NoInjectionNotes()
    {
        var r = Lessons.Complete(Seed("siege-db"), [Result("siege-db", "db-async", 1000)], Seeds);
        Assert.DoesNotContain(r.Observations, o => o.Contains("injection", StringComparison.OrdinalIgnoreCase));
    }

    [Fact]
    public void EveryRuntimeNote_IsLabelledBackground_AndNamesTheSeedsRuntimeCorrectly()
    {
        foreach (var e in SeedExperiments.All(LabProfile.Full))
        {
            Assert.All(e.RuntimeNotes, n => Assert.StartsWith("Background: ", n, StringComparison.Ordinal));
            var runtime = Seeds.Runtime(e.Name)!;
            if (runtime.CooperativeBlocking is not null)
            {
                Assert.Contains(e.RuntimeNotes, n => n.Contains(runtime.Name.Split(' ')[0], StringComparison.Ordinal));
            }
        }
        Assert.Equal(true, Seeds.Runtime("siege-db")!.CooperativeBlocking);
        Assert.Equal(false, Seeds.Runtime("ab-100")!.CooperativeBlocking);
        Assert.Equal(false, Seeds.Runtime("jmeter-1000")!.CooperativeBlocking);
        Assert.Null(Seeds.Runtime("vegeta-50")!.CooperativeBlocking);
    }

    [Fact]
    public void PlanNamedLikeASeed_GetsNoSeedFigures()
    {
        var plan = Seed("ab-100") with { Seeds = [], RuntimeNotes = [] };
        var r = Lessons.Complete(plan, [Result("ab-100", "sleep", 6000, cooperative: 2), Result("ab-100", "sleep-min100", 1000)], Seeds);
        Assert.All(r.Lessons, l => Assert.Null(l.SeedSpread));
        Assert.DoesNotContain(r.Observations, o => o.Contains("seed's runtime", StringComparison.Ordinal));
    }

    // --repeat keeps each run's figures on one result: the spread is over the runs, and one run cut short stops the comparison
    [Theory]
    [InlineData(ScenarioStatus.Completed, ShapeMatch.Same)]
    [InlineData(ScenarioStatus.DeadlineReached, ShapeMatch.NotCompared)]
    public void RepeatedRuns_GiveTheSpread(ScenarioStatus lastRun, ShapeMatch expected)
    {
        static RunFigures Run(int n, double mean, ScenarioStatus status = ScenarioStatus.Completed) =>
            new(n, status, 10, 0, mean, mean, mean, mean, 1, 3, 0, null, null);
        var sleep = Result("jmeter-1000", "sleep", 3000) with { Runs = [Run(1, 2600), Run(2, 3000), Run(3, 3400, lastRun)] };
        var delay = Result("jmeter-1000", "delay", 1000) with { Runs = [Run(1, 1000), Run(2, 1000), Run(3, 1000)] };
        var l = Lessons.Complete(Seed("jmeter-1000"), [sleep, delay], Seeds).Lessons[0];
        Assert.Equal(expected, l.Match);
        if (expected == ShapeMatch.Same)
        {
            Assert.Equal(2.6, l.OursSpread!.Low, 6);
            Assert.Equal(3.4, l.OursSpread.High, 6);
        }
        else
        {
            Assert.Equal("sleep stopped at its deadline", l.Incomplete);
        }
    }
}
