using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Common;

/// <summary>
/// Text read from files reaches the terminal only through <see cref="TerminalText"/>: every format of the commands that
/// print what a file holds (compare's scenario names, a saved watch's evidence) is run on files full of escape
/// sequences, and a writer that bypasses the escape fails here with the raw character it printed.
/// </summary>
public sealed class TerminalTextWritersTests : IDisposable
{
    private const string Hostile = "\u001b]0;owned\u0007\u001b[2J\u009b31m\u202e";
    private readonly string _folder = Directory.CreateTempSubdirectory("tplab-terminal-").FullName;

    public TerminalTextWritersTests()
    {
        var summary = JsonNode.Parse(File.ReadAllText(Path.Combine(Fixtures, "results-single", "summary.json")))!;
        foreach (var s in summary["scenarios"]!.AsArray())
        {
            s!["scenario"] = s["scenario"]!.GetValue<string>() + Hostile;
        }
        foreach (var side in new[] { "a", "b" })
        {
            Directory.CreateDirectory(Path.Combine(_folder, side));
            File.WriteAllText(Path.Combine(_folder, side, "summary.json"), summary.ToJsonString());
        }
        var lines = File.ReadAllLines(Path.Combine(Fixtures, "watch.jsonl")).Select(l =>
        {
            var o = JsonNode.Parse(l)!.AsObject();
            if (o["evidence"] is { } evidence)
            {
                o["evidence"] = Hostile + evidence.GetValue<string>();
            }
            return o.ToJsonString(new JsonSerializerOptions { Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping });
        });
        File.WriteAllLines(Path.Combine(_folder, "watch.jsonl"), lines);
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static string Fixtures => Tplab.Tests.Support.Fixtures.V1;

    [Theory]
    [InlineData("compare {tmp}/a {tmp}/b")]
    [InlineData("compare {tmp}/a {tmp}/b --format html")]
    [InlineData("compare {tmp}/a {tmp}/b --format json")]
    [InlineData("watch --from {tmp}/watch.jsonl --format live")]
    [InlineData("watch --from {tmp}/watch.jsonl --format csv")]
    [InlineData("watch --from {tmp}/watch.jsonl --format jsonl")]
    [InlineData("watch --from {tmp}/watch.jsonl --format html")]
    public async Task Command_PrintingAFilesText_PrintsNoControlCharacter(string line)
    {
        var (_, stdout, stderr) = await InProcessCli.RunAsync(CultureInfo.InvariantCulture, BadInputTable.Split(line.Replace("{tmp}", _folder, StringComparison.Ordinal)));

        foreach (var (name, text) in new[] { ("stdout", stdout), ("stderr", stderr) })
        {
            var raw = text.Where(c => c is not ('\n' or '\r' or '\t') && TerminalText.NeedsEscape(c)).Select(c => $"U+{(int)c:X4}").Distinct().ToList();
            Assert.True(raw.Count == 0, $"tplab {line}: {name} holds {string.Join(", ", raw)}");
        }
    }
}
