using System.Globalization;
using System.Text;
using Tplab.Tests.Scan.Fix.Differential;
using Tplab.Tests.Support;

namespace Tplab.Bench.Fix;

/// <summary>
/// The differential harness over the whole corpus, run by bench/fix-differential.sh: each app named in
/// TPLAB_DIFFERENTIAL_APPS (':'-separated folders) built before and after <c>tplab fix --apply</c>, its fixed endpoints
/// called on both (success, error, cancellation, 16 at once), answers and side effects compared. Writes the Markdown
/// of BENCHMARKS.md ("Fix: behaviour kept") to TPLAB_DIFFERENTIAL_REPORT, each difference and refusal after it.
/// </summary>
public sealed class FixDifferentialBenchmark
{
    public const string AppsVariable = "TPLAB_DIFFERENTIAL_APPS";
    public const string ReportVariable = "TPLAB_DIFFERENTIAL_REPORT";

    [BenchFact]
    public async Task FixDifferential_EveryCorpusApp_ComparedBeforeAndAfter()
    {
        var apps = (Environment.GetEnvironmentVariable(AppsVariable) ?? throw new InvalidOperationException(AppsVariable + " is not set")).Split(':', StringSplitOptions.RemoveEmptyEntries);
        var path = Environment.GetEnvironmentVariable(ReportVariable) ?? throw new InvalidOperationException(ReportVariable + " is not set");
        var table = new StringBuilder();
        var details = new StringBuilder();
        table.AppendLine("| app | findings | fixed | partly fixed | refused (by check) | builds before / after | fixed endpoints called | requests sent | behaviour changes | wall time |");
        table.AppendLine("|---|---:|---:|---:|---|---|---:|---:|---:|---:|");
        foreach (var app in apps)
        {
            using var limit = new CancellationTokenSource(TimeSpan.FromMinutes(30));
            var r = await DifferentialRun.RunAsync(app, limit.Token);
            var refused = r.Findings.Where(f => f.Status == "refused").GroupBy(f => f.Check ?? "no check").OrderBy(g => g.Key, StringComparer.Ordinal)
                .Select(g => string.Create(CultureInfo.InvariantCulture, $"{g.Count()} {g.Key}"));
            var called = r.FixedEndpoints.Count - r.FixedEndpointsNotCalled.Count;
            table.AppendLine(string.Create(CultureInfo.InvariantCulture,
                $"| {r.App} | {r.Findings.Count} | {r.Findings.Count(f => f.Status == "fixed")} | {r.Findings.Count(f => f.Status == "partly-fixed")} | {string.Join(", ", refused)} | {Word(r.Before.Compiles)} / {Word(r.After.Compiles)} | {called}/{r.FixedEndpoints.Count} | {r.RequestsSent} | {(r.Before.Compiles && r.After.Compiles ? r.Differences.Count.ToString(CultureInfo.InvariantCulture) : "not run")} | {r.Elapsed.TotalSeconds:0} s |"));
            details.AppendLine(CultureInfo.InvariantCulture, $"\n{r.App}: fix exited {r.FixExitCode}");
            foreach (var d in r.Differences)
            {
                details.AppendLine(CultureInfo.InvariantCulture, $"- difference: {d}");
            }
            foreach (var e in r.FixedEndpointsNotCalled)
            {
                details.AppendLine(CultureInfo.InvariantCulture, $"- fixed, not called: {e}");
            }
            foreach (var f in r.Findings.Where(f => f.Status != "fixed"))
            {
                details.AppendLine(CultureInfo.InvariantCulture, $"- {f.Status} {f.Check ?? "-"} {f.UserFrame} ({f.BlockingCall}, {f.File}:{f.Line}): {f.Reason}");
            }
            if (!r.After.Compiles)
            {
                details.AppendLine("- the fixed build: " + r.After.Log.ReplaceLineEndings(" "));
            }
        }
        await File.WriteAllTextAsync(path, table.ToString() + details);
    }

    private static string Word(bool compiles) => compiles ? "compiles" : "**fails**";
}
