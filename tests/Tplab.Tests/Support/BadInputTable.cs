using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using Tplab.Common;

namespace Tplab.Tests.Support;

/// <summary>
/// One row of a bad-input table run as issue 21 asks: under every culture of <see cref="InProcessCli.Cultures"/>, the
/// command line exits with the expected code, says one line on stderr (<c>tplab: …</c>, no stack trace, no CLR type
/// name, no control byte) that names the input at fault, writes nothing to stdout, and creates or changes no file.
/// Each row runs in a folder of its own holding the fixture files below; <c>{tmp}</c> in a row stands for it.
/// </summary>
internal static partial class BadInputTable
{
    /// <summary>Files every row finds in its folder, to name in command lines: plans, targets, saved results.</summary>
    public static readonly IReadOnlyDictionary<string, string> Fixtures = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["plan.yaml"] = "name: p\nscenarios:\n  - id: sleep\n    variant: sleep\n    load: { concurrency: 2, requests: 4 }\n",
        ["remote.yaml"] = "name: remote\nservice:\n  pid: 1\n  url: http://example.com/\nscenarios:\n  - id: a\n    requests: [/]\n    load: { concurrency: 1, requests: 5 }\n",
        ["comma-rate.yaml"] = "name: c\nscenarios:\n  - id: s\n    variant: sleep\n    load: { rate: '2,5', duration: 1s }\n",
        ["comma-duration.yaml"] = "name: c\nscenarios:\n  - id: s\n    variant: sleep\n    load: { concurrency: 1, duration: '1,5s' }\n",
        ["service-pid.yaml"] = "name: svc\nservice:\n  pid: 1\n  url: http://127.0.0.1:1/\nscenarios:\n  - id: a\n    requests: [/]\n    load: { concurrency: 1, requests: 5 }\n",
        ["broken.yaml"] = "name: [unclosed\n",
        ["empty.yaml"] = "",
        ["targets.txt"] = "GET http://127.0.0.1:9/a\n\nGET http://127.0.0.1:9/b\n",
        ["escape-targets.txt"] = "G\u001b[2JET\u001b]0;owned\u0007 http://127.0.0.1:9/\n",
        ["remote-targets.txt"] = "GET http://example.com/\n",
        ["bad-header-targets.txt"] = "GET http://127.0.0.1:9/\nNo colon here\n",
        ["not-json.json"] = "{ this is not json",
        ["other.json"] = "{\"hello\": 1}",
        ["garbage.hlog"] = "#[StartTime: 1.5 (seconds since epoch)]\nnot,a,histogram,line\n",
        ["comma.hlog"] = "#[StartTime: 1,5 (seconds since epoch)]\n",
        ["body.txt"] = "hello",
        ["results/summary.json"] = "{\"schemaVersion\": 1, \"scenarios\": [{\"experiment\": \"p\", \"scenario\": \"sleep\", \"status\": \"completed\"}]}",
        ["other-results/summary.json"] = "{\"schemaVersion\": 1, \"scenarios\": [{\"experiment\": \"q\", \"scenario\": \"delay\", \"status\": \"completed\"}]}",
        ["saved.jsonl"] = "",
        ["scan/app.csproj"] = "<Project Sdk=\"Microsoft.NET.Sdk.Web\"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup></Project>\n",
        ["scan/Program.cs"] = "var app = WebApplication.Create(args);\napp.Run();\n",
        ["scan/baseline.json"] = "{\"schema\": 1, \"findings\": []}\n",
    };

    /// <summary>Runs one row under every culture and asserts it; <paramref name="line"/> is the command line after <c>tplab</c>.</summary>
    /// <param name="more">fixtures of the row's own table beside <see cref="Fixtures"/>; every row also finds <c>{tmp}/fifo</c>, a FIFO no one writes to.</param>
    public static async Task AssertRefusedAsync(string line, int expectedCode, string names, IReadOnlyDictionary<string, string>? more = null)
    {
        var folder = Directory.CreateTempSubdirectory("tplab-badinput-").FullName;
        try
        {
            foreach (var (name, text) in Fixtures.Concat(more ?? new Dictionary<string, string>()))
            {
                var path = Path.Combine(folder, name);
                Directory.CreateDirectory(Path.GetDirectoryName(path)!);
                File.WriteAllText(path, text);
            }
            Fifo.Make(Path.Combine(folder, "fifo"));
            var before = Snapshot(folder);
            var args = Split(line.Replace("{tmp}", folder, StringComparison.Ordinal));
            foreach (var culture in InProcessCli.Cultures)
            {
                var (code, stdout, stderr) = await InProcessCli.RunAsync(culture, args);
                var where = $"tplab {line} [{(culture.Name.Length == 0 ? "invariant" : culture.Name)}]: exit {code}, stderr: {stderr.TrimEnd()}";
                Assert.True(code == expectedCode, $"{where} (expected exit {expectedCode})");
                var lines = stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
                Assert.True(lines.Length == 1, $"{where}: expected one line on stderr");
                var message = lines[0];
                Assert.True(message.StartsWith("tplab: ", StringComparison.Ordinal), where);
                Assert.True(message.Contains(names.Replace("{tmp}", folder, StringComparison.Ordinal), StringComparison.Ordinal), $"{where}: does not name '{names}'");
                Assert.False(ClrLeak().IsMatch(message) || message.Contains("internal error", StringComparison.Ordinal), $"{where}: leaks internals");
                Assert.False(message.Any(TerminalText.NeedsEscape), $"{where}: a control character reached the terminal");
                Assert.True(stdout.Length == 0, $"{where}: wrote to stdout: {stdout}");
                Assert.True(before.SetEquals(Snapshot(folder)), $"{where}: created or changed files in {folder}");
            }
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    // A stack frame, an exception's type, a generic type's CLR name (System.Nullable`1[System.Int64]).
    // A CLR parameter name as ArgumentException adds it ("(Parameter 'path')").
    [GeneratedRegex(@"(^|\s)at \S+\(|\w+Exception\b|`\d+\[|System\.(Private|Runtime|Nullable|Int32|Int64|Double|Boolean|String)\b|\(Parameter '")]
    private static partial Regex ClrLeak();

    // Every file and folder under the row's folder, with its size and time, so that a new file or a rewrite shows.
    private static HashSet<string> Snapshot(string folder) =>
        [.. new DirectoryInfo(folder).EnumerateFileSystemInfos("*", SearchOption.AllDirectories)
            .Select(f => string.Create(CultureInfo.InvariantCulture, $"{Path.GetRelativePath(folder, f.FullName)}|{(f as FileInfo)?.Length}|{f.LastWriteTimeUtc.Ticks}"))];

    /// <summary>Splits a command line on spaces; single quotes keep spaces in a word ('p99 < 1s'), '' is an empty word.</summary>
    public static string[] Split(string line)
    {
        var words = new List<string>();
        var word = new StringBuilder();
        var quoted = false;
        var started = false;
        foreach (var c in line)
        {
            if (c == '\'')
            {
                quoted = !quoted;
                started = true;
            }
            else if (c == ' ' && !quoted)
            {
                if (started)
                {
                    words.Add(word.ToString());
                    word.Clear();
                    started = false;
                }
            }
            else
            {
                word.Append(c);
                started = true;
            }
        }
        if (started)
        {
            words.Add(word.ToString());
        }
        return [.. words];
    }
}
