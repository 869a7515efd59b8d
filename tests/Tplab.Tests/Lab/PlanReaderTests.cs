using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Lab.Plans;
using Tplab.Tests.Support;

namespace Tplab.Tests.Lab;

/// <summary>Plan files: custom matrices of variant × load × pool settings, and one clear line for every mistake.</summary>
[ParallelSafe]
public sealed class PlanReaderTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-plan-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private string File(string name, string text)
    {
        var path = Path.Combine(_folder, name);
        System.IO.File.WriteAllText(path, text);
        return path;
    }

    [Fact]
    public void Read_YamlMatrix_IsTheCrossProduct()
    {
        var plan = PlanReader.Read(File("m.yaml", """
            name: mine
            matrix:
              variants: [sleep, delay]
              waitMs: 200
              minThreads: [null, 50]
              loads:
                - { concurrency: 20, requests: 40 }
                - { rate: 10, duration: 2s }
            """));
        Assert.Equal("mine", plan.Name);
        Assert.Equal(8, plan.Scenarios.Count);
        Assert.Contains(plan.Scenarios, s => s is { Variant: "sleep", WaitMs: 200, ThreadPool.MinThreads: 50, Load: { Model: LoadModel.Open, Rate: 10 } });
        Assert.Equal(plan.Scenarios.Count, plan.Scenarios.Select(s => s.Id).Distinct().Count());
    }

    [Fact]
    public void Read_JsonScenarios_KeepsEveryField()
    {
        var plan = PlanReader.Read(File("s.json", """
            { "scenarios": [ { "id": "x", "variant": "db-sync", "waitMs": 500,
                "knobs": { "System.Threading.ThreadPool.MinThreads": 64 },
                "load": { "concurrency": 30, "duration": "5s", "think": "0..200ms", "rampUp": "1s", "timeout": "10s" } } ] }
            """));
        var s = Assert.Single(plan.Scenarios);
        Assert.Equal("x", s.Id);
        Assert.True(s.NeedsDatabase);
        Assert.Equal("64", Assert.Single(s.ThreadPool.Knobs).Value);
        Assert.Equal(TimeSpan.FromMilliseconds(200), s.Load.ThinkMax);
        Assert.Equal(TimeSpan.FromSeconds(5), s.Load.Duration);
        Assert.Equal(TimeSpan.FromSeconds(1), s.Load.RampUp);
        Assert.Equal(TimeSpan.FromSeconds(10), s.Load.Timeout);
    }

    [Theory]
    // syntax: the line is named
    [InlineData("bad.yaml", "scenarios:\n  - variant: sleep\n   load: {", "line ")]
    [InlineData("bad.json", "{ \"scenarios\": [ }", "line 1")]
    // fields: the field is named
    [InlineData("v.yaml", "scenarios:\n  - variant: nap\n    load: { requests: 1 }", "scenarios[0].variant: unknown variant")]
    [InlineData("c.yaml", "scenarios:\n  - variant: sleep\n    load: { concurrency: 0, requests: 1 }", "scenarios[0].load.concurrency: must be a whole number from 1")]
    [InlineData("n.yaml", "scenarios:\n  - variant: sleep\n    load: { concurrency: lots, requests: 1 }", "scenarios[0].load.concurrency: must be a number")]
    [InlineData("d.yaml", "scenarios:\n  - variant: sleep\n    load: { duration: forever }", "scenarios[0].load.duration")]
    [InlineData("o.yaml", "scenarios:\n  - variant: sleep\n    load: { rate: 10 }", "scenarios[0].load: an open-loop load needs")]
    [InlineData("e.yaml", "scenarios:\n  - variant: sleep\n    load: { concurrency: 5 }", "needs 'requests', 'loops' or 'duration'")]
    [InlineData("u.yaml", "scenarios:\n  - variant: sleep\n    speed: 3\n    load: { requests: 1 }", "scenarios[0].speed: unknown field")]
    [InlineData("t.yaml", "scenarios:\n  - variant: sleep\n    load: { requests: 1, think: 5..1ms }", "scenarios[0].load.think")]
    [InlineData("empty.yaml", "name: x", "no scenarios")]
    [InlineData("ms.yaml", "matrix: { variants: [sleep], minThreads: 5, loads: [ { requests: 1 } ] }", "matrix.minThreads: must be a list")]
    [InlineData("kind.yaml", "scenarios:\n  - { variant: sleep, requests: [/a], load: { requests: 1 } }", "scenarios[0].requests: unknown field")]
    [InlineData("list.yaml", "scenarios: { a: 1 }", "scenarios: must be a list")]
    [InlineData("dup.yaml", "scenarios:\n  - { variant: sleep, load: { requests: 1 } }\n  - { variant: sleep, load: { requests: 1 } }", "two scenarios have the id")]
    // names become paths under the results folder, and seed experiments' names are taken
    [InlineData("esc.yaml", "name: ../x\nscenarios:\n  - { variant: sleep, load: { requests: 1 } }", "name: must be 1 to 64 letters")]
    [InlineData("id.yaml", "scenarios:\n  - { id: ../../etc, variant: sleep, load: { requests: 1 } }", "scenarios[0].id: must be 1 to 64 letters")]
    [InlineData("slash.yaml", "scenarios:\n  - { id: a/b, variant: sleep, load: { requests: 1 } }", "scenarios[0].id: must be 1 to 64 letters")]
    [InlineData("dot.yaml", "scenarios:\n  - { id: .hidden, variant: sleep, load: { requests: 1 } }", "scenarios[0].id: must be 1 to 64 letters")]
    [InlineData("seed.yaml", "name: ab-100\nscenarios:\n  - { variant: sleep, load: { requests: 1 } }", "name: 'ab-100' is the name of a seed experiment")]
    [InlineData("siege-db.yaml", "scenarios:\n  - { variant: sleep, load: { requests: 1 } }", "name: 'siege-db' is the name of a seed experiment")]
    [InlineData("my plan.yaml", "scenarios:\n  - { variant: sleep, load: { requests: 1 } }", "(taken from the file name: give 'name')")]
    public void Read_BadPlan_OneLineNamingTheFieldOrLine(string name, string text, string expected)
    {
        var error = Assert.Throws<TplabException>(() => PlanReader.Read(File(name, text)));
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error.Message);
    }

    [Fact]
    public void Read_MissingFile_IsAUsageError()
    {
        var error = Assert.Throws<TplabException>(() => PlanReader.Read(Path.Combine(_folder, "nope.yaml")));
        Assert.Equal(ExitCodes.Usage, error.ExitCode);
    }
}
