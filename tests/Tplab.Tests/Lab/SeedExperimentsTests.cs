using Tplab.Lab.Experiments;
using Tplab.Lab.Seeds;
using Tplab.Tests.Support;

namespace Tplab.Tests.Lab;

/// <summary>The catalogue of the seeds' experiments, and the published figures beside them.</summary>
[ParallelSafe]
public sealed class SeedExperimentsTests
{
    [Fact]
    public void Full_UsesTheSeedsExactParameters()
    {
        var all = SeedExperiments.All(LabProfile.Full).ToDictionary(e => e.Name);
        Assert.Equal(new LoadProfile { Concurrency = 100, Requests = 100 }, all["ab-100"].Scenarios[0].Load);
        Assert.Equal(1000, all["jmeter-1000"].Scenarios[0].Load.ExpectedRequests);
        Assert.Equal(3000, all["jmeter-1000"].Scenarios[0].WaitMs);
        Assert.Equal(120, all["siege-db"].Scenarios[0].Load.Concurrency);
        Assert.Equal(TimeSpan.FromSeconds(60), all["siege-db"].Scenarios[0].Load.Duration);
        Assert.Equal(3000, all["vegeta-50"].Scenarios[0].Load.ExpectedRequests);
    }

    [Theory]
    [InlineData(LabProfile.Quick)]
    [InlineData(LabProfile.Full)]
    public void EveryScenario_HasSeedFiguresEntry_AndEveryLessonNamesRealScenarios(LabProfile profile)
    {
        var seeds = SeedFigures.Load();
        foreach (var e in SeedExperiments.All(profile))
        {
            Assert.All(e.Scenarios, s => Assert.NotNull(seeds.For(e.Name, s.Id)));
            Assert.All(e.Lessons, l => Assert.Contains(e.Scenarios, s => s.Id == l.Numerator));
            Assert.All(e.Lessons, l => Assert.Contains(e.Scenarios, s => s.Id == l.Denominator));
            Assert.All(e.Scenarios, s => Assert.Contains(s.Variant, Variants.All));
        }
    }

    [Fact]
    public void SeedFigures_AreThePublishedOnes()
    {
        var seeds = SeedFigures.Load();
        Assert.Equal(13050, seeds.Figure("ab-100", "sleep", "p50Ms"));
        Assert.Equal(39, seeds.Figure("ab-100", "sleep", "failed"));
        Assert.Equal(88.91, seeds.Figure("siege-db", "db-async", "requestsPerSecond"));
        Assert.Null(seeds.Figure("ab-100", "http-result-min100", "meanMs"));
        Assert.NotNull(seeds.FigureOrMidRange("jmeter-1000", "sleep", "meanMs"));
    }
}
