using System.Text;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Lab.Plans;
using Tplab.Launch.Service;
using Tplab.Tests.Support;

namespace Tplab.Tests.Lab;

/// <summary>A plan written by tplab (scan --plan) reads back into the same experiment: one definition of the format.</summary>
[ParallelSafe]
public sealed class PlanWriterTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-plan-writer-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static readonly FindingCheck Sleep = new("sleep", "GET /orders/{id:int}", "Orders.LegacyOrderStore.RoundTrip", "Thread.Sleep", "error", "OrderService.cs:55");

    private Experiment Plan() => new()
    {
        Name = "scan-orders", Title = "plan scan-orders", Seeds = [], Scaling = "tplab scan --plan",
        Service = new ServiceDefinition
        {
            Command = "dotnet run --project Orders.csproj -c Release --no-launch-profile", WorkingDirectory = Path.Combine(_folder, "app"),
            Environment = [new("ASPNETCORE_URLS", "http://127.0.0.1:0"), new("Odd", "null")], StartTimeout = TimeSpan.FromMinutes(3),
        },
        Scenarios =
        [
            new Scenario
            {
                Experiment = "scan-orders", Id = "get-orders-id", Name = "GET /orders/{id:int}", Requests = [new RequestSpec("GET", "/orders/1?sku=1", [], ReadOnlyMemory<byte>.Empty, 1, "GET /orders/{id:int}")],
                Load = new LoadProfile { Concurrency = 32, Duration = TimeSpan.FromSeconds(10) }, Deadline = TimeSpan.FromMinutes(2), Checks = [Sleep],
            },
        ],
        SwitchedOff =
        [
            new Scenario
            {
                Experiment = "scan-orders", Id = "post-orders", Name = "POST /orders", Enabled = false,
                Requests = [new RequestSpec("POST", "/orders", [new("Content-Type", "application/json")], Encoding.UTF8.GetBytes("{\"sku\":1,\"note\":\"a: b\"}"), 1, "POST /orders")],
                Load = new LoadProfile { Concurrency = 32, Duration = TimeSpan.FromSeconds(10) }, Checks = [Sleep with { Root = "POST /orders" }],
            },
        ],
        Watch = [new FindingCheck("sync-over-async", "hosted-service Orders.Refresher.ExecuteAsync", "Orders.Refresher.Refresh", "Task.Wait", "warning", null)],
    };

    [Theory]
    [InlineData("plan.yaml", "# a comment")]
    [InlineData("plan.json", "// a comment")] // scan --plan plan.json writes JSON that run --plan plan.json reads
    public void Write_ThenRead_GivesTheSamePlan(string file, string comment)
    {
        var path = Path.Combine(_folder, file);
        var plan = Plan();
        AtomicFile.Write(path, w => PlanWriter.Write(plan, path, ["a comment", ""], w));

        var read = PlanReader.Read(path);

        Assert.StartsWith(comment, File.ReadAllText(path), StringComparison.Ordinal);
        Assert.Equal(plan.Name, read.Name);
        Assert.Equal(plan.Service!.Command, read.Service!.Command);
        Assert.Equal(plan.Service.WorkingDirectory, read.Service.WorkingDirectory);
        Assert.Equal(plan.Service.Environment, read.Service.Environment);
        Assert.Equal(plan.Service.StartTimeout, read.Service.StartTimeout);
        var scenario = Assert.Single(read.Scenarios);
        Assert.Equal("get-orders-id", scenario.Id);
        Assert.Equal("/orders/1?sku=1", scenario.Requests[0].Path);
        Assert.Equal(plan.Scenarios[0].Load, scenario.Load);
        Assert.Equal(TimeSpan.FromMinutes(2), scenario.Deadline);
        Assert.Equal([Sleep], scenario.Checks);
        var off = Assert.Single(read.SwitchedOff);
        Assert.False(off.Enabled);
        Assert.Equal("{\"sku\":1,\"note\":\"a: b\"}", Encoding.UTF8.GetString(off.Requests[0].Body.Span));
        Assert.Equal(plan.SwitchedOff[0].Requests[0].Headers, off.Requests[0].Headers);
        Assert.Equal(plan.Watch, read.Watch);
    }

    [Theory]
    [InlineData("plan.yaml")]
    [InlineData("plan.json")]
    public void Write_ThenRead_GivesTheSameRecords(string file)
    {
        // One definition of the format: the records the writer writes are the records the reader reads, field by field.
        var path = Path.Combine(_folder, file);
        var plan = Plan() with { Service = Plan().Service! with { ReadyPath = "/health", MinThreadsVia = MinThreadsVia.Setting, MinThreadsSetting = "POOL_MIN" } };
        var written = PlanWriter.From(plan, path);
        AtomicFile.Write(path, w => PlanWriter.Write(plan, path, ["a comment"], w));

        var document = PlanDocument.Read(path);
        var read = PlanReader.Records(document, new FieldReader(document));

        JsonAssert.Equal(
            System.Text.Json.JsonSerializer.Serialize(written, PlanJsonContext.Plans.PlanFile),
            System.Text.Json.JsonSerializer.Serialize(read, PlanJsonContext.Plans.PlanFile));
        Assert.NotNull(read.Service!.Environment);
        Assert.NotNull(read.Scenarios![0]!.Checks);
        Assert.NotNull(read.Watch);
    }

    [SchemaFact]
    public async Task Write_Json_ValidatesAgainstThePlanSchema()
    {
        var path = Path.Combine(_folder, "plan.json");
        AtomicFile.Write(path, w => PlanWriter.Write(Plan(), path, [], w)); // without comments: the validator reads plain JSON
        var written = Path.Combine(_folder, "written.json");
        File.WriteAllText(written, File.ReadAllText(path));
        var sample = Path.Combine(_folder, "sample.json");
        File.WriteAllText(sample, """
            { "name": "m", "matrix": { "variants": ["sleep"], "minThreads": [null, "50"], "loads": [ { "rate": 10, "duration": 2 } ] },
              "scenarios": [ { "variant": "sleep", "waitMs": "200", "knobs": { "A": 1, "B": true }, "load": { "requests": 4, "think": "0..1ms" } } ] }
            """);

        await SchemaValidation.AssertValidAsync(SchemaValidation.SchemaOf("plan"), written, sample);
        PlanReader.Read(sample); // what the schema takes, tplab reads
    }

    [Theory]
    [InlineData("enabled: maybe", "scenarios[0].enabled: must be true or false")]
    [InlineData("enabled: false", "every scenario is switched off (enabled: false)")]
    [InlineData("checks: [ { rule: sleep } ]", "scenarios[0].checks[0].root: is required")]
    [InlineData("checks: [ { rule: sleep, root: r, userMethod: m, blockingCall: c, severity: fatal } ]", "scenarios[0].checks[0].severity: must be error, warning or note")]
    [InlineData("checks: [ { rule: sleep, root: r, userMethod: m, blockingCall: c, line: 3 } ]", "scenarios[0].checks[0].line: unknown field")]
    public void Read_BadScenarioField_NamesIt(string field, string expected)
    {
        var path = Path.Combine(_folder, "bad.yaml");
        File.WriteAllText(path, $"""
            name: p
            service: {"{"} command: ./app {"}"}
            scenarios:
              - id: a
                requests: [ /a ]
                load: {"{"} concurrency: 1, requests: 1 {"}"}
                {field}
            """);

        var error = Assert.Throws<TplabException>(() => PlanReader.Read(path));

        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("big.yaml")]
    [InlineData("big.json")]
    public void Write_PlanPastTheReadersBound_RefusedBeforeAByteIsWritten(string file)
    {
        // scan --plan of an app with hundreds of endpoints: a plan run --plan would refuse must not be written.
        var one = Plan().Scenarios[0];
        var plan = Plan() with { Scenarios = [.. Enumerable.Range(0, 2000).Select(i => one with { Id = $"s{i}" })] };
        var writer = new StringWriter();

        var error = Assert.Throws<TplabException>(() => PlanWriter.Write(plan, Path.Combine(_folder, file), ["a comment"], writer));

        Assert.Equal(ExitCodes.Usage, error.ExitCode);
        Assert.Contains("more than the 20,000 tplab run --plan reads", error.Message, StringComparison.Ordinal);
        Assert.Equal("", writer.ToString());
    }

    [Fact]
    public void Write_PlanJustUnderTheBound_ReadsBack()
    {
        // The writer counts as the reader does: the largest plan it writes is one the reader takes.
        var one = Plan().Scenarios[0];
        var path = Path.Combine(_folder, "under.yaml");
        var count = 1;
        for (var n = 64; n <= 4096; n *= 2)
        {
            var candidate = Plan() with { Scenarios = [.. Enumerable.Range(0, n).Select(i => one with { Id = $"s{i}" })] };
            try
            {
                AtomicFile.Write(path, w => PlanWriter.Write(candidate, path, [], w));
                count = n;
            }
            catch (TplabException)
            {
                break;
            }
        }

        Assert.Equal(count, PlanReader.Read(path).Scenarios.Count);
    }
}
