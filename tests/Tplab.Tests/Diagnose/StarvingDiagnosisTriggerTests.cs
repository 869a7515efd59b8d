using System.Text.Json;
using Tplab.Diagnose;
using Microsoft.Extensions.Time.Testing;
using Tplab.Watch;
using Tplab.Watch.Running;
using Tplab.Diagnose.OnStarving;
using Tplab.Watch.Verdicts;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose;

/// <summary>The trigger behind <c>watch --on-starving diagnose</c>: once per episode, a cool-down, files written whole.</summary>
[ParallelSafe]
public sealed class StarvingDiagnosisTriggerTests
{
    private static ThreadPoolSample Sample(double seconds, PoolVerdict verdict) =>
        new(TimeSpan.FromSeconds(seconds), 4, verdict == PoolVerdict.Starving ? 40 : 0, 10, 20, 5, 0, 100, verdict, "test");

    private static Diagnosis Clear() =>
        new(42, "app", new Version(10, 0, 0), DiagnosisVerdict.Clear, [], TimeSpan.FromSeconds(3), TimeSpan.FromSeconds(4),
            new StackEvidence(1000, 0, 1, 2, 0, null));

    [Fact]
    public async Task OnSample_OneDiagnosisPerEpisode_NextEpisodeOnlyAfterTheCooldown()
    {
        var dir = Directory.CreateTempSubdirectory("tplab-trigger-");
        try
        {
            var time = new FakeTimeProvider();
            var calls = 0;
            var options = new StarvingDiagnosisOptions { Output = Path.Combine(dir.FullName, "d.json"), Cooldown = TimeSpan.FromSeconds(60) };
            var trigger = new StarvingDiagnosisTrigger(42, TimeSpan.FromSeconds(1), options, TextWriter.Null, time, () =>
            {
                calls++;
                return Task.FromResult(Clear());
            });

            // episode 1: starving for three samples, recovering, healthy
            trigger.OnSample(Sample(1, PoolVerdict.Starving));
            await trigger.Idle;
            trigger.OnSample(Sample(2, PoolVerdict.Starving));
            trigger.OnSample(Sample(3, PoolVerdict.Recovering));
            trigger.OnSample(Sample(4, PoolVerdict.Healthy));
            // episode 2 within the cool-down: no diagnosis
            time.Advance(TimeSpan.FromSeconds(30));
            trigger.OnSample(Sample(34, PoolVerdict.Starving));
            await trigger.Idle;
            Assert.Equal(1, calls);
            trigger.OnSample(Sample(35, PoolVerdict.Healthy));
            // episode 3 after the cool-down: the second file, named -2
            time.Advance(TimeSpan.FromSeconds(31));
            trigger.OnSample(Sample(65, PoolVerdict.Starving));
            await trigger.Idle;

            Assert.Equal(2, calls);
            Assert.Equal([options.Output, Path.Combine(dir.FullName, "d-2.json")], trigger.Written);
            using var doc = JsonDocument.Parse(await File.ReadAllTextAsync(trigger.Written[1]));
            Assert.Equal("starving", doc.RootElement.GetProperty("pool").GetProperty("verdict").GetString());
            Assert.Empty(Directory.GetFiles(dir.FullName, "*.tmp"));
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [Theory]
    [InlineData("diagnose", null)]
    [InlineData("diagnose=out/d.txt", "out/d.txt")]
    public void Parse_AcceptsDiagnoseWithOptionalFile(string text, string? output) =>
        Assert.Equal(output, StarvingDiagnosisOptions.Parse(text).Output);

    [Theory]
    [InlineData("dump")]
    [InlineData("diagnose=")]
    public void Parse_OtherActions_AreUsageErrors(string text) =>
        Assert.Equal(Tplab.Common.ExitCodes.Usage, Assert.Throws<Tplab.Common.TplabException>(() => StarvingDiagnosisOptions.Parse(text)).ExitCode);
}
