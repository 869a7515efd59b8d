using Tplab.Common;
using Tplab.Lab.Plans;

namespace Tplab.Tests.Lab.Plans;

/// <summary>
/// Plans written to hurt (issue 28): each is refused when read, before any folder, process or connection exists, in one
/// line that names the plan's field and its line, never a CLI option, and never by a stack overflow or a run out of memory.
/// </summary>
public sealed class HostilePlanTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-hostile-plan-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private const string Service = "name: p\nservice: { command: ./app, url: 'http://127.0.0.1:5000' }\n";

    private static string Scenario(string load = "{ concurrency: 1, requests: 1 }", string extra = "", string request = "/a") =>
        Service + $"scenarios:\n  - id: a\n    requests: [ {request} ]\n    load: {load}\n{extra}";

    public static TheoryData<string, string, string> Plans => new()
    {
        // the reader's own bounds
        { "self.yaml", "a: &x [ *x ]\n", "refers to a node that contains it" },
        { "self-map.yaml", "&x { a: *x }\n", "refers to a node that contains it" },
        { "laughs.yaml", Laughs(), "more than 20,000 values" },
        { "deep.yaml", new string('[', 200) + new string(']', 200), "nested more than 32 levels" },
        { "deep.json", new string('[', 200) + new string(']', 200), "line 1" },
        { "dup.json", "{ \"name\": \"a\",\n  \"name\": \"b\" }", "line 2: name: the key 'name' is given twice" },
        { "dup.yaml", "name: a\nname: b\n", "line 2: name: the key 'name' is given twice" },
        { "listkey.yaml", "? [a, b]\n: 1\n", "a key must be a plain word" },
        { "mapkey.yaml", "? { a: 1 }\n: 1\n", "a key must be a plain word" },
        { "aliaskey.yaml", "k: &k name\n*k : 1\n", "a key must be a plain word" },
        { "unknown-alias.yaml", "a: *nope\n", "names no anchor" },
        { "two.yaml", "name: a\n---\nname: b\n", "one YAML document" },
        { "trailing.json", "{ \"name\": \"a\" } { }", "invalid JSON" },
        // every field checked when read, naming the field and the line
        { "nan.yaml", Scenario("{ model: open, rate: .nan, duration: 1s }"), "line 6: scenarios[0].load.rate: must be a number" },
        { "nan-text.yaml", Scenario("{ model: open, rate: NaN, duration: 1s }"), "scenarios[0].load.rate: must be from 0.001" },
        { "inf.yaml", Scenario("{ concurrency: .inf, requests: 1 }"), "scenarios[0].load.concurrency: must be a number" },
        { "few.yaml", Scenario("{ model: open, rate: 0.001, duration: 1s }"), "scenarios[0].load.rate: 0.001/s for 1s plans no request" },
        { "dur0.yaml", Scenario("{ concurrency: 1, duration: 0s }"), "scenarios[0].load.duration: must be from 100ms" },
        { "timeout0.yaml", Scenario("{ concurrency: 1, requests: 1, timeout: 0s }"), "scenarios[0].load.timeout: must be from 1ms" },
        { "deadline0.yaml", Scenario(extra: "    deadline: 0s\n"), "line 7: scenarios[0].deadline: must be from 1s" },
        { "think.yaml", Scenario("{ concurrency: 1, requests: 1, think: 0..2h }"), "scenarios[0].load.think: must be at most 1h" },
        { "crlf.yaml", Scenario(request: "{ path: /a, headers: { X-A: \"1\\r\\nX-Evil: 2\" } }"), "headers.X-A: holds a line break" },
        { "hname.yaml", Scenario(request: "{ path: /a, headers: { 'X A': 1 } }"), "'X A' is not a valid header name" },
        { "weight.yaml", Scenario(request: "/a, { path: /b, weight: x }"), "line 5: scenarios[0].requests[1].weight: must be a number, got \"x\"" },
        { "loadnum.yaml", Scenario("5"), "line 6: scenarios[0].load: must be an object, got \"5\"" },
        { "hlist.yaml", Scenario(request: "{ path: /a, headers: { X-A: [1] } }"), "scenarios[0].requests[0].headers.X-A: must be a number, true/false or a string" },
        { "hcolon.yaml", Scenario(request: "{ path: /a, headers: { 'X:A': 1 } }"), "'X:A' is not a valid header name" },
        { "cmd.yaml", "name: p\nservice: { command: '', url: 'http://127.0.0.1:5000' }\nscenarios: [ { requests: [/], load: { requests: 1 } } ]\n", "service.command: is empty" },
        { "start0.yaml", "name: p\nservice: { command: ./app, startTimeout: 0s }\nscenarios: [ { requests: [/], load: { requests: 1 } } ]\n", "service.startTimeout: must be from 1s" },
        { "env.yaml", "name: p\nservice: { command: ./app, environment: { 'A=B': 1 } }\nscenarios: [ { requests: [/], load: { requests: 1 } } ]\n", "service.environment.A=B" },
        { "urlpath.yaml", "name: p\nservice: { command: ./app, url: 'http://127.0.0.1:5000/api/v1' }\nscenarios: [ { requests: [/], load: { requests: 1 } } ]\n", "service.url: must be the service's address only" },
        // names that would become paths outside the results folder, for the user's service as for the built-in target
        { "up.yaml", Service + "scenarios: [ { id: ../../../X, requests: [/], load: { requests: 1 } } ]\n", "scenarios[0].id: must be 1 to 64 letters" },
        { "slash.yaml", Service + "scenarios: [ { id: a/b, requests: [/], load: { requests: 1 } } ]\n", "scenarios[0].id: must be 1 to 64 letters" },
        { "empty-id.yaml", Service + "scenarios: [ { id: '', requests: [/], load: { requests: 1 } } ]\n", "scenarios[0].id: must be 1 to 64 letters" },
        { "ctrl-id.yaml", Service + "scenarios: [ { id: \"a\\u0007b\", requests: [/], load: { requests: 1 } } ]\n", "scenarios[0].id: must be 1 to 64 letters" },
        { "ctrl-target.yaml", "scenarios: [ { id: \"a\\tb\", variant: sleep, load: { requests: 1 } } ]\n", "scenarios[0].id: must be 1 to 64 letters" },
    };

    // 9 levels of 9 aliases: 9^9 values if expanded (the 1.3 KB file of the sweep that grew to 5.7 GB).
    private static string Laughs()
    {
        var lines = new List<string> { "a0: &a0 [x, x, x, x, x, x, x, x, x]" };
        for (var i = 1; i < 10; i++)
        {
            lines.Add($"a{i}: &a{i} [{string.Join(", ", Enumerable.Repeat($"*a{i - 1}", 9))}]");
        }
        return string.Join('\n', lines) + "\n";
    }

    [Theory]
    [MemberData(nameof(Plans))]
    public void Read_HostilePlan_RefusedInOneLineNamingTheFieldAndLine(string name, string text, string expected)
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllText(path, text);

        var error = Assert.Throws<TplabException>(() => PlanReader.Read(path));

        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
        Assert.Contains("line ", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', error.Message);
        Assert.DoesNotContain("--rate", error.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("--duration", error.Message, StringComparison.Ordinal);
        Assert.Single(Directory.EnumerateFileSystemEntries(_folder)); // nothing created beside the plan
    }

    [Fact]
    public void Read_FileLargerThanTheLimit_IsRefusedBeforeParsing()
    {
        var path = Path.Combine(_folder, "big.yaml");
        File.WriteAllText(path, "# " + new string('x', PlanDocument.MaxBytes) + "\n");

        var error = Assert.Throws<TplabException>(() => PlanReader.Read(path));

        Assert.Contains("larger than 1 MiB, the most tplab reads as a plan", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Read_EmptyPath_IsAUsageErrorNotAnInternalOne()
    {
        var error = Assert.Throws<TplabException>(() => PlanReader.Read(""));

        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains("--plan: the path is empty", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Read_AliasesWithinBounds_AreExpanded()
    {
        var path = Path.Combine(_folder, "ok.yaml");
        File.WriteAllText(path, "name: ok\nscenarios:\n  - { id: a, variant: sleep, load: &l { concurrency: 2, requests: 4 } }\n  - { id: b, variant: delay, load: *l }\n");

        var plan = PlanReader.Read(path);

        Assert.Equal(plan.Scenarios[0].Load, plan.Scenarios[1].Load);
    }
}
