using System.Text.Json.Serialization.Metadata;
using Tplab.Common.Json;
using Tplab.Load.Formats;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load.Formats;

/// <summary>The load's JSON (<c>--format json</c>, and each scenario's <c>load</c> in summary.json): one record, every field, old files too.</summary>
[ParallelSafe]
public sealed class LoadJsonTests
{
    // A run with every field: the handler's split, errors, the open loop's figures, thresholds and an abort.
    private static LoadJson Full()
    {
        var json = LoadJson.From(FakeLabResults.Result(FakeLabResults.Scenario("sleep", "sleep"), 20, waitedStepMs: 100, timedOut: 2).Load!.Summary);
        return json with
        {
            Interrupted = true, Engine = "sockets", TargetRate = 50, AchievedRate = 49.5, LateSends = 3, Unsent = 1, LateThresholdMs = 2,
            SendLagMs = json.LatencyMs, ServiceTimeMs = json.LatencyMs,
            Thresholds = [new ThresholdJson("p99<500ms", "p99", 1234.5, false)], AbortedBy = "p99<500ms",
        };
    }

    [Fact]
    public void LoadJson_EveryField_RoundTrips()
    {
        var json = Full();
        JsonAssert.EveryFieldSet(json);
        JsonAssert.EveryFieldSet(json.LatencyMs);
        JsonAssert.EveryFieldSet(json.HandlerTiming!);
        JsonAssert.EveryFieldSet(json.Targets[0] with { Index = 1, HandlerTiming = json.HandlerTiming });

        var read = TplabJson.Read(LoadJsonText(json), LoadJsonTypeInfo, "load");

        Assert.Equal(LoadJsonText(json), LoadJsonText(read));
        Assert.Equal(json.Thresholds, read.Thresholds);
        Assert.Equal(json.StatusCodes, read.StatusCodes);
    }

    [Theory]
    [InlineData("load-closed.json")]
    [InlineData("load-open.json")]
    public void LoadJson_WrittenBeforeTheTypedSchema_ReadsAndWritesBackTheSameJson(string name)
    {
        var original = File.ReadAllText(Fixtures.V1File(name));

        var read = TplabJson.Read(original, LoadJsonTypeInfo, name);

        JsonAssert.Equal(original, LoadJsonText(read));
    }

    [SchemaFact]
    public async Task Schema_LoadJsonWrittenNowAndBefore_Validates()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-load-schema-").FullName;
        try
        {
            var now = Path.Combine(folder, "now.json");
            File.WriteAllText(now, LoadJsonText(Full()));
            var plain = Path.Combine(folder, "plain.json");
            using (var writer = new StreamWriter(plain))
            {
                new JsonFormat().Write(FakeLabResults.Result(FakeLabResults.Scenario("delay", "delay"), 5, 0, starving: false).Load!.Summary, writer);
            }

            await SchemaValidation.AssertValidAsync(SchemaValidation.SchemaOf("load"), now, plain, Fixtures.V1File("load-closed.json"), Fixtures.V1File("load-open.json"));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [SchemaFact]
    public async Task Merge_Json_HasEveryFieldAndValidates()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-merge-json-").FullName;
        try
        {
            var paths = new List<string>();
            foreach (var run in new[] { 0, 1 })
            {
                var path = Path.Combine(folder, $"run{run}.hlog");
                using (var file = new StreamWriter(path))
                {
                    var log = new HlogFormat().Open(file, DateTimeOffset.UnixEpoch.AddSeconds(1_800_000_000 + run));
                    for (var i = 0; i < 1000; i++)
                    {
                        var end = TimeSpan.FromMilliseconds(i);
                        var latency = TimeSpan.FromMilliseconds(1 + (i % 50));
                        log.Write(new Tplab.Load.Engine.RequestRecord(end - latency, end - latency, end, end, 200, 0, 0, 0, null, 0));
                    }
                    log.Complete();
                }
                paths.Add(path);
            }
            var output = Path.Combine(folder, "merged.json");
            using (var writer = new StreamWriter(output))
            {
                Tplab.Load.Formats.MergeReport.Write(Tplab.Load.Histograms.HistogramLog.Merge(paths), "json", writer);
            }

            var read = TplabJson.Read(File.ReadAllText(output), LoadJsonContext.Indented.MergedJson, "merged");

            JsonAssert.EveryFieldSet(read);
            JsonAssert.EveryFieldSet(read.LatencyMs);
            Assert.Equal((2, 2000L), (read.Files, read.Requests));
            await SchemaValidation.AssertValidAsync(SchemaValidation.SchemaOf("load-merge"), output);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static JsonTypeInfo<LoadJson> LoadJsonTypeInfo => LoadJsonContext.Indented.LoadJson;

    private static string LoadJsonText(LoadJson json) => TplabJson.Serialize(json, LoadJsonTypeInfo);
}
