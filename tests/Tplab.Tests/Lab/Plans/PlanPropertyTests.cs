using System.Globalization;
using System.Text;
using CsCheck;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Lab.Plans;
using Tplab.Launch.Service;
using Tplab.Tests.Support;

namespace Tplab.Tests.Lab.Plans;

/// <summary>
/// Properties over random plans (CsCheck): a plan tplab writes reads back equal, in YAML and JSON, under every culture;
/// random values in any field are read or refused in one line, exit 2, never an internal error.
/// </summary>
public sealed class PlanPropertyTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-plan-props-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    // Any text a user might put in a plan's strings: letters, punctuation YAML and JSON treat specially, control
    // characters, non-ASCII, leading and trailing spaces.
    private static readonly Gen<string> AnyText = Gen.String[Gen.OneOf(Gen.Char.AlphaNumeric, Gen.Char['\0', '\u007f'], Gen.Char['\u00a0', '\u2fff'],
        Gen.OneOf(':', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', '{', '}', '[', ']', ',', '-', '?', ' ', '\\')), 0, 24];

    private static readonly Gen<string> OneLine = AnyText.Select(s => new string([.. s.Where(c => c is not ('\r' or '\n' or '\0'))]));
    private static readonly Gen<string> Word = Gen.String[Gen.Char.AlphaNumeric, 1, 12];
    private static readonly Gen<string> Id = Gen.Select(Gen.Char.AlphaNumeric, Gen.String[Gen.OneOf(Gen.Char.AlphaNumeric, Gen.OneOf('.', '-', '_')), 0, 20], (c, s) => c + s);
    private static readonly Gen<string> Token = Gen.String[Gen.OneOf(Gen.Char.AlphaNumeric, Gen.OneOf('-', '_', '.', '!', '~')), 1, 16];
    private static readonly Gen<TimeSpan> Millis = Gen.Int[100, 3_600_000].Select(ms => TimeSpan.FromMilliseconds(ms));

    private static readonly Gen<RequestSpec> Request = Gen.Select(
        Gen.OneOf("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"), Word, Gen.Select(Token, OneLine, KeyValuePair.Create).Array[0, 3],
        AnyText.Where(s => !s.Contains('\0', StringComparison.Ordinal)), Gen.Int[1, 1_000_000], OneLine.Null(),
        (method, path, headers, body, weight, name) => new RequestSpec(method, "/" + path, [.. headers.DistinctBy(h => h.Key)], Encoding.UTF8.GetBytes(body), weight, name));

    private static readonly Gen<LoadProfile> Load = Gen.OneOf(
        Gen.Select(Gen.Int[1, 10_000], Gen.Int[1, 10_000_000].Nullable(), Millis.Nullable(), Millis, (c, n, d, t) => new LoadProfile { Concurrency = c, Requests = n ?? (d is null ? 10 : (int?)null), Duration = d, Timeout = t }),
        Gen.Select(Gen.Double[1, 100_000], Millis.Where(d => d >= TimeSpan.FromSeconds(1)), Millis, (r, d, t) => new LoadProfile { Model = LoadModel.Open, Rate = r, Duration = d, Timeout = t }));

    private static readonly Gen<FindingCheck> Check = Gen.Select(Word, OneLine.Where(s => s.Trim().Length > 0), OneLine.Where(s => s.Trim().Length > 0), OneLine.Where(s => s.Trim().Length > 0),
        Gen.OneOf("error", "warning", "note"), OneLine.Null(), (rule, root, method, call, severity, at) => new FindingCheck(rule, root, method, call, severity, at));

    private static readonly Gen<Scenario> AScenario = Gen.Select(Id, Request.Array[1, 3], Load, Gen.Int[1, 600].Select(s => TimeSpan.FromSeconds(s)), Check.Array[0, 2], Gen.Bool,
        (id, requests, load, deadline, checks, enabled) => new Scenario
        {
            Experiment = "p", Id = id, Name = id, Requests = requests, Load = load, Deadline = deadline, Checks = checks, Enabled = enabled,
        });

    private Gen<Experiment> Plan => Gen.Select(Id, OneLine.Where(s => s.Trim().Length > 0), Gen.Select(Token, AnyText.Where(s => !s.Contains('\0', StringComparison.Ordinal)), KeyValuePair.Create).Array[0, 3],
        AScenario.Array[1, 4], Check.Array[0, 2], Gen.Int[1, 3600],
        (name, command, environment, scenarios, watch, start) =>
        {
            var distinct = scenarios.DistinctBy(s => s.Id).Select(s => s with { Experiment = "plan-" + name }).ToList();
            if (distinct.All(s => !s.Enabled))
            {
                distinct[0] = distinct[0] with { Enabled = true };
            }
            return new Experiment
            {
                Name = "plan-" + name, Title = "", Seeds = [], Scaling = "",
                Service = new ServiceDefinition { Command = command, WorkingDirectory = _folder, Environment = [.. environment.DistinctBy(e => e.Key)], StartTimeout = TimeSpan.FromSeconds(start) },
                Scenarios = [.. distinct.Where(s => s.Enabled)], SwitchedOff = [.. distinct.Where(s => !s.Enabled)], Watch = watch,
            };
        });

    [Theory]
    [InlineData("plan.yaml")]
    [InlineData("plan.json")]
    public void WrittenPlan_ReadsBackEqual_UnderEveryCulture(string file)
    {
        Gen.Select(Plan, Gen.Int[0, InProcessCli.Cultures.Count - 1]).Sample((plan, culture) =>
        {
            var path = Path.Combine(_folder, Guid.NewGuid().ToString("N") + file); // samples run on several threads
            var saved = CultureInfo.CurrentCulture;
            CultureInfo.CurrentCulture = InProcessCli.Cultures[culture];
            try
            {
                AtomicFile.Write(path, w => PlanWriter.Write(plan, path, ["a comment: with # and \u001b"], w));
                var read = PlanReader.Read(path);
                Assert.Equal(plan.Name, read.Name);
                Assert.Equal(plan.Service!.Command, read.Service!.Command);
                Assert.Equal(plan.Service.Environment, read.Service.Environment);
                Assert.Equal(plan.Service.StartTimeout, read.Service.StartTimeout);
                Assert.Equal(plan.Watch, read.Watch);
                foreach (var (written, back) in plan.Scenarios.Concat(plan.SwitchedOff).Zip(read.Scenarios.Concat(read.SwitchedOff), (a, b) => (a, b)))
                {
                    Assert.Equal(written.Id, back.Id);
                    Assert.Equal(written.Enabled, back.Enabled);
                    Assert.Equal(written.Load, back.Load);
                    Assert.Equal(written.Deadline, back.Deadline);
                    Assert.Equal(written.Checks, back.Checks);
                    Assert.Equal(written.Requests.Select(Text), back.Requests.Select(Text));
                }
                Assert.Equal(plan.Scenarios.Count + plan.SwitchedOff.Count, read.Scenarios.Count + read.SwitchedOff.Count);
            }
            finally
            {
                CultureInfo.CurrentCulture = saved;
            }
        }, iter: 150);
    }

    private static string Text(RequestSpec r) =>
        $"{r.Method} {r.Path} {string.Join(";", r.Headers)} {Convert.ToBase64String(r.Body.Span)} {r.Weight} {r.Name}";

    private static readonly string[] Fields =
    [
        "name", "service.command", "service.url", "service.startTimeout", "service.warmUp", "id", "minThreads", "deadline",
        "load.concurrency", "load.requests", "load.duration", "load.rate", "load.timeout", "load.think", "load.rampUp", "load.model",
        "request.path", "request.method", "request.weight", "request.header",
    ];

    // Values a fuzzer or a careless user would put anywhere: numbers at every edge, durations, words, escapes.
    private static readonly Gen<string> AnyValue = Gen.OneOf(
        Gen.OneOf("0", "-1", "1e300", "-0", ".nan", "NaN", ".inf", "1e-9", "2,5", "1_000", "0x10", "", "~", "null", "true", "[]", "{}", "[1, 2]", "{ a: 1 }",
            "0s", "0ms", "1e300s", "-1s", "1.5.5s", "25h", "0..0", "5..1ms", "*x", "&x 1", "!!binary AAAA", "'", "\"\\u0000\"", "\"\\e[2J\"", "\"a\\r\\nb: c\""),
        Gen.Double.Select(d => d.ToString("R", CultureInfo.InvariantCulture)),
        Gen.Long.Select(l => l.ToString(CultureInfo.InvariantCulture)),
        AnyText.Select(s => "\"" + string.Concat(s.Select(c => c is '"' or '\\' || char.IsControl(c) ? $"\\u{(int)c:x4}" : c.ToString())) + "\""));

    [Fact]
    public void RandomFieldValues_ReadOrRefusedInOneLine_NeverAnInternalError()
    {
        Gen.Select(Gen.OneOf(Fields), AnyValue).Sample((field, value) =>
        {
            var path = Path.Combine(_folder, Guid.NewGuid().ToString("N") + ".yaml");
            string V(string f, string usual) => f == field ? value : usual;
            File.WriteAllText(path, $$"""
                name: {{V("name", "p")}}
                service: { command: {{V("service.command", "./app")}}, url: {{V("service.url", "'http://127.0.0.1:5000'")}}, startTimeout: {{V("service.startTimeout", "10s")}}, warmUp: {{V("service.warmUp", "1")}} }
                scenarios:
                  - id: {{V("id", "a")}}
                    minThreads: {{V("minThreads", "10")}}
                    deadline: {{V("deadline", "1m")}}
                    requests:
                      - { path: {{V("request.path", "/a")}}, method: {{V("request.method", "GET")}}, weight: {{V("request.weight", "1")}}, headers: { X-A: {{V("request.header", "b")}} } }
                    load: { model: {{V("load.model", "closed")}}, concurrency: {{V("load.concurrency", "2")}}, requests: {{V("load.requests", "4")}}, duration: {{V("load.duration", "1s")}}, timeout: {{V("load.timeout", "5s")}}, think: {{V("load.think", "0..1ms")}}, rampUp: {{V("load.rampUp", "0s")}} }
                """);
            try
            {
                PlanReader.Read(path);
            }
            catch (TplabException e)
            {
                Assert.Equal(ExitCodes.Usage, e.ExitCode);
                Assert.DoesNotContain('\n', TerminalText.Line(e.Message));
                Assert.StartsWith($"--plan {path}", e.Message, StringComparison.Ordinal);
                Assert.DoesNotContain("--rate", e.Message, StringComparison.Ordinal);
            }
        }, iter: 400);
    }
}
