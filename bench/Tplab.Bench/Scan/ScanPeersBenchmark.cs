using System.Globalization;
using Tplab.Tests.Scan.Judge;
using Tplab.Tests.Scan.Truth;
using Tplab.Tests.Scan;
using Tplab.Tests.Support;

namespace Tplab.Bench.Scan;

/// <summary>
/// The judge run by bench/scan-peers.sh: reads the manifest it wrote (one line per tool and app: tool, rules counted,
/// app, SARIF path, tab-separated; a path starting with '!' is the reason the tool has no log), scores every log
/// against the truth, adds the peers taken together (every tool not named tplab), and writes the Markdown tables.
/// </summary>
public sealed class ScanPeersBenchmark
{
    public const string ManifestVariable = "TPLAB_SCAN_MANIFEST";
    public const string ReportVariable = "TPLAB_SCAN_REPORT";

    [BenchFact]
    public void ScanPeers_EveryToolsSarif_IsScoredAgainstTheTruth()
    {
        var manifest = Environment.GetEnvironmentVariable(ManifestVariable) ?? throw new InvalidOperationException(ManifestVariable + " is not set");
        var report = Environment.GetEnvironmentVariable(ReportVariable) ?? throw new InvalidOperationException(ReportVariable + " is not set");
        var truth = ScanTruthLoader.Load(RepoPaths.Root);
        Assert.True(truth.Problems.Count == 0, string.Join('\n', truth.Problems));

        var runs = Runs(File.ReadAllLines(manifest), truth);
        var peers = runs.Where(r => r.Unavailable is null && !r.Tool.StartsWith("tplab", StringComparison.OrdinalIgnoreCase)).ToList();
        if (peers.Count > 1)
        {
            runs.Add(Together(peers, File.ReadAllLines(manifest), truth));
        }
        File.WriteAllText(report, ScanReport.Markdown(runs, truth.Apps));
    }

    private static List<ToolRun> Runs(IEnumerable<string> lines, ScanTruth truth)
    {
        var runs = new List<ToolRun>();
        foreach (var tool in Entries(lines).GroupBy(e => e.Tool))
        {
            var first = tool.First();
            if (first.Log.StartsWith('!'))
            {
                runs.Add(new ToolRun(tool.Key, first.Rules, [], first.Log[1..]));
                continue;
            }
            var scores = tool.Where(e => File.Exists(e.Log))
                .Select(e => ScanJudge.Score(tool.Key, truth.App(e.App), RuleFilter.Parse(e.Rules).Apply(SarifLog.Read(e.Log))))
                .ToList();
            runs.Add(scores.Count == 0
                ? new ToolRun(tool.Key, first.Rules, [], "no SARIF log was written (see the script's output)")
                : new ToolRun(tool.Key, first.Rules, scores));
        }
        return runs;
    }

    /// <summary>The peers as one tool: a root is found when any of them finds it; their flagged lines are pooled.</summary>
    private static ToolRun Together(IReadOnlyList<ToolRun> peers, IEnumerable<string> lines, ScanTruth truth)
    {
        var names = peers.Select(p => p.Tool).ToHashSet(StringComparer.Ordinal);
        var entries = Entries(lines).Where(e => names.Contains(e.Tool) && File.Exists(e.Log)).ToList();
        var scores = entries.GroupBy(e => e.App)
            .Select(app => ScanJudge.Score("peers together", truth.App(app.Key),
                app.SelectMany(e => RuleFilter.Parse(e.Rules).Apply(SarifLog.Read(e.Log)))))
            .ToList();
        return new ToolRun("peers together", "all of the above", scores);
    }

    private static IEnumerable<(string Tool, string Rules, string App, string Log)> Entries(IEnumerable<string> lines) =>
        lines.Where(l => l.Length > 0 && !l.StartsWith('#'))
            .Select(l => l.Split('\t'))
            .Select(f => f.Length == 4
                ? (f[0], f[1], f[2], f[3])
                : throw new FormatException(string.Create(CultureInfo.InvariantCulture, $"manifest line has {f.Length} fields, expected 4: {string.Join(" | ", f)}")));
}
