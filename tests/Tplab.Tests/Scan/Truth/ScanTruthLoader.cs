using System.Text.Json;
using Tplab.Tests.Corpus;

namespace Tplab.Tests.Scan.Truth;

/// <summary>
/// Reads the truth file and resolves every call site's snippet to a line of the source as it is now, so the truth
/// follows the code when lines move. A snippet is a string, or a list of strings found in order: the first must occur
/// on exactly one line of the file, each next one is the first occurrence at or after the line of the one before, and
/// the call site is the line of the last. Everything that does not fit the sources is collected as a problem.
/// </summary>
internal static class ScanTruthLoader
{
    private static readonly HashSet<string> Places =
    [
        "minimal-api", "mvc-action", "razor-page", "middleware", "filter", "hub", "grpc", "delegating-handler", "health-check",
        "authorization-handler", "hosted-service", "timer", "di-factory", "main", "dedicated-thread",
    ];

    private static readonly HashSet<string> Severities = ["error", "warning", "note"];

    public static ScanTruth Load(string repoRoot, string? truthPath = null)
    {
        var path = Path.Combine(repoRoot, truthPath ?? ScanTruth.DefaultPath);
        using var document = JsonDocument.Parse(File.ReadAllText(path), new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip });
        var problems = new List<string>();
        var sources = new SourceFiles(repoRoot);
        var apps = new List<TruthApp>();
        foreach (var app in document.RootElement.GetProperty("apps").EnumerateArray())
        {
            var name = app.GetProperty("name").GetString()!;
            var project = app.GetProperty("project").GetString()!;
            if (!File.Exists(Path.Combine(repoRoot, project)))
            {
                problems.Add($"{name}: project {project} does not exist");
            }
            var folder = Path.GetDirectoryName(project)!.Replace('\\', '/');
            var roots = app.GetProperty("roots").EnumerateArray().Select(r => ReadRoot(name, folder, r, sources, problems)).ToList();
            foreach (var duplicate in roots.GroupBy(r => r.Case, StringComparer.Ordinal).Where(g => g.Count() > 1))
            {
                problems.Add($"{name}: case '{duplicate.Key}' appears {duplicate.Count()} times");
            }
            apps.Add(new TruthApp(name, project, roots));
        }
        return new ScanTruth(apps, problems);
    }

    private static TruthRoot ReadRoot(string app, string folder, JsonElement json, SourceFiles sources, List<string> problems)
    {
        var name = json.GetProperty("case").GetString()!;
        var where = $"{app}/{name}";
        var root = json.GetProperty("root");
        var place = new RootPlace(
            Text(root, "place") ?? "",
            Text(root, "method"),
            Text(root, "route"),
            Text(root, "name"),
            root.TryGetProperty("guards", out var guards) ? [.. guards.EnumerateArray().Select(g => g.GetString()!)] : []);
        if (!Places.Contains(place.Place))
        {
            problems.Add($"{where}: unknown place '{place.Place}'");
        }
        if ((place.Method is null || place.Route is null) && place.Name is null)
        {
            problems.Add($"{where}: a root needs a method and route, or a name");
        }
        var verdictText = Text(json, "verdict") ?? "";
        if (!Enum.TryParse<Verdict>(verdictText, ignoreCase: true, out var verdict))
        {
            problems.Add($"{where}: unknown verdict '{verdictText}'");
        }
        var severity = Text(json, "severity");
        var chains = json.TryGetProperty("chains", out var chainsJson)
            ? chainsJson.EnumerateArray().Select(c => (IReadOnlyList<CallSite>)[.. c.EnumerateArray().Select(h => ReadSite(folder, h, where, sources, problems))]).ToList()
            : [];
        var traps = json.TryGetProperty("traps", out var trapsJson)
            ? trapsJson.EnumerateArray().Select(t => ReadSite(folder, t, where, sources, problems)).ToList()
            : [];
        var result = new TruthRoot(app, name, place, verdict, severity, Text(json, "why") ?? "",
            json.TryGetProperty("needsDatabase", out var db) && db.GetBoolean(), chains, traps);
        Check(result, where, problems);
        return result;
    }

    private static void Check(TruthRoot root, string where, List<string> problems)
    {
        if (root.Verdict == Verdict.Clean)
        {
            if (root.Chains.Count > 0 || root.Severity is not null)
            {
                problems.Add($"{where}: a clean root has no chains and no severity");
            }
            return;
        }
        if (root.Chains.Count == 0 || root.Chains.Any(c => c.Count == 0))
        {
            problems.Add($"{where}: a {root.Verdict.ToString().ToLowerInvariant()} root needs at least one non-empty chain");
        }
        if (root.Chains.Any(c => c.Count > 0 && c[^1].Call is null))
        {
            problems.Add($"{where}: the last hop of every chain names its blocking call (\"call\")");
        }
        if (root.Severity is null || !Severities.Contains(root.Severity))
        {
            problems.Add($"{where}: severity must be error, warning or note, got '{root.Severity}'");
        }
        else if ((root.Verdict == Verdict.Waste) != (root.Severity == "note"))
        {
            problems.Add($"{where}: waste is a note, and only waste is");
        }
    }

    private static CallSite ReadSite(string folder, JsonElement json, string where, SourceFiles sources, List<string> problems)
    {
        var file = folder + "/" + json.GetProperty("file").GetString();
        var at = json.GetProperty("at");
        string[] anchors = at.ValueKind == JsonValueKind.Array ? [.. at.EnumerateArray().Select(a => a.GetString()!)] : [at.GetString()!];
        var atText = string.Join(" … ", anchors);
        var method = Text(json, "method") ?? "";
        var site = new CallSite(file, 0, method, Text(json, "call"), atText);
        var lines = sources.Lines(file);
        if (lines is null)
        {
            problems.Add($"{where}: {file} does not exist");
            return site;
        }
        var line = Resolve(lines, anchors, out var why);
        if (line == 0)
        {
            problems.Add($"{where}: {file}: {why}");
            return site;
        }
        if (MethodCheck.Problem(lines, method, line) is { } methodProblem)
        {
            problems.Add($"{where}: {file}:{line}: {methodProblem}");
        }
        return site with { Line = line };
    }

    /// <summary>The 1-based line the anchors lead to, or 0 with the reason.</summary>
    internal static int Resolve(IReadOnlyList<string> lines, IReadOnlyList<string> anchors, out string why)
    {
        // The shop's runtime expectations quote the lines they name; a quote is not the line.
        var first = Enumerable.Range(0, lines.Count)
            .Where(i => lines[i].Contains(anchors[0], StringComparison.Ordinal) && !CorpusSource.Declares(lines[i]))
            .ToList();
        if (first.Count != 1)
        {
            why = first.Count == 0 ? $"'{anchors[0]}' not found" : $"'{anchors[0]}' is on {first.Count} lines; make it unique or anchor it";
            return 0;
        }
        var index = first[0];
        foreach (var anchor in anchors.Skip(1))
        {
            var next = Enumerable.Range(index, lines.Count - index)
                .FirstOrDefault(i => lines[i].Contains(anchor, StringComparison.Ordinal) && !CorpusSource.Declares(lines[i]), -1);
            if (next < 0)
            {
                why = $"'{anchor}' not found after line {index + 1}";
                return 0;
            }
            index = next;
        }
        why = "";
        return index + 1;
    }

    private static string? Text(JsonElement json, string property) =>
        json.TryGetProperty(property, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() : null;

    /// <summary>The lines of each source file, read once.</summary>
    private sealed class SourceFiles(string repoRoot)
    {
        private readonly Dictionary<string, string[]?> _files = new(StringComparer.Ordinal);

        public string[]? Lines(string repoRelative)
        {
            if (!_files.TryGetValue(repoRelative, out var lines))
            {
                var path = Path.Combine(repoRoot, repoRelative);
                lines = File.Exists(path) ? File.ReadAllLines(path) : null;
                _files[repoRelative] = lines;
            }
            return lines;
        }
    }
}
