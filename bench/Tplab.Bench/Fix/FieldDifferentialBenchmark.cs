using System.Globalization;
using System.Text;
using Tplab.Tests.Scan.Fix.Differential;
using Tplab.Tests.Support;

namespace Tplab.Bench.Fix;

/// <summary>
/// The differential harness on the field's output (bench/fix-field-differential.sh): each app as written against the
/// copy another tool changed (VSTHRD's code fixes, CascadeAsyncifier, AsyncGenerator, or tplab itself in the same
/// field run), both built and started, every endpoint scan flags called on both — the plan scan writes for the app
/// as written, so every tool's copy is asked the same requests — with the app's own .http requests. Set
/// <see cref="CopiesVariable"/> to <c>label|app source folder|changed app folder|changed endpoints</c> entries
/// separated by <c>;</c> (the changed endpoints, "GET /route" separated by tabs, are those of the root paths the tool
/// fixed: the table says how many of them a request called); the Markdown table goes to
/// <see cref="FixDifferentialBenchmark.ReportVariable"/>'s file.
/// </summary>
public sealed class FieldDifferentialBenchmark
{
    public const string CopiesVariable = "TPLAB_FIELD_COPIES";

    [BenchFact]
    public async Task FieldDifferential_EveryToolsCopy_ComparedWithTheAppAsWritten()
    {
        var copies = (Environment.GetEnvironmentVariable(CopiesVariable) ?? throw new InvalidOperationException(CopiesVariable + " is not set"))
            .Split(';', StringSplitOptions.RemoveEmptyEntries).Select(e => e.Split('|')).ToList();
        var path = Environment.GetEnvironmentVariable(FixDifferentialBenchmark.ReportVariable) ?? throw new InvalidOperationException(FixDifferentialBenchmark.ReportVariable + " is not set");
        var table = new StringBuilder();
        var details = new StringBuilder();
        table.AppendLine("| app / tool | builds before / after | endpoints called | changed endpoints called | requests sent | behaviour changes | wall time |");
        table.AppendLine("|---|---|---:|---:|---:|---:|---:|");
        foreach (var (label, source, changedFolder, changedEndpoints) in copies.Select(c => (c[0], c[1], c[2], c.Length > 3 ? c[3].Split('\t', StringSplitOptions.RemoveEmptyEntries) : [])))
        {
            using var limit = new CancellationTokenSource(TimeSpan.FromMinutes(30));
            using var original = AppCopies.Original(source);
            var changed = await DifferentialRun.ChangeAsync(original, (folder, ct) => TakeAsync(changedFolder, changedEndpoints, original.Folder, folder, ct), limit.Token);
            var r = await DifferentialRun.CompareAsync(original, changed, limit.Token);
            table.AppendLine(string.Create(CultureInfo.InvariantCulture,
                $"| {label} | {Word(r.Before.Compiles)} / {Word(r.After.Compiles)} | {r.EndpointsCalled.Count} | {r.FixedEndpoints.Count - r.FixedEndpointsNotCalled.Count}/{r.FixedEndpoints.Count} | {r.RequestsSent} | {(r.Before.Compiles && r.After.Compiles ? r.Differences.Count.ToString(CultureInfo.InvariantCulture) : "not run")} | {r.Elapsed.TotalSeconds:0} s |"));
            details.AppendLine(CultureInfo.InvariantCulture, $"\n{label}: plan {(changed.Fix.Plan is null ? "none: " + changed.Fix.Output.ReplaceLineEndings(" ") : "from scan of the app as written")}");
            foreach (var e in r.FixedEndpointsNotCalled)
            {
                details.AppendLine(CultureInfo.InvariantCulture, $"- changed endpoint not called: {e}");
            }
            foreach (var d in r.Differences)
            {
                details.AppendLine(CultureInfo.InvariantCulture, $"- difference: {d}");
            }
            if (!r.After.Compiles)
            {
                details.AppendLine("- the changed build: " + r.After.Log.ReplaceLineEndings(" "));
            }
        }
        await File.WriteAllTextAsync(path, table.ToString() + details);
    }

    // The tool's sources over the copy (its bin and obj left out), and scan's plan of the app as written (every flagged
    // endpoint); the endpoints the tool changed stand as one fixed finding, so the report counts those a request called.
    private static async Task<FixOutcome> TakeAsync(string changedFolder, string[] changedEndpoints, string originalFolder, string folder, CancellationToken ct)
    {
        CopyOver(changedFolder, folder);
        var plan = Path.Combine(Path.GetDirectoryName(folder)!, "plan.json");
        var report = Path.Combine(Path.GetDirectoryName(folder)!, "scan.json");
        var (code, _, stderr) = await TplabCli.RunAsync(TimeSpan.FromMinutes(15), "scan", originalFolder, "--format", "json", "-o", report, "--plan", plan, "--plan-writes").WaitAsync(ct);
        FixedFinding changed = new("field", "fixed", null, "", "", "", 0, changedEndpoints, null);
        return new FixOutcome(code, [changed], File.Exists(plan) ? plan : null, $"scan exited {code}: {stderr}");
    }

    private static void CopyOver(string from, string to)
    {
        Directory.CreateDirectory(to);
        foreach (var file in Directory.GetFiles(from))
        {
            File.Copy(file, Path.Combine(to, Path.GetFileName(file)), overwrite: true);
        }
        foreach (var dir in Directory.GetDirectories(from).Where(d => Path.GetFileName(d) is not ("bin" or "obj")))
        {
            CopyOver(dir, Path.Combine(to, Path.GetFileName(dir)));
        }
    }

    private static string Word(bool compiles) => compiles ? "compiles" : "**fails**";
}
