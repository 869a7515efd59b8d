using System.Globalization;
using Tplab.Common;

namespace Tplab.Lab.Comparing;

/// <summary>Which way a figure or a scenario moved from A to B.</summary>
public enum Change
{
    /// <summary>Within the threshold, or inside the runs' spread.</summary>
    NoClearChange,

    /// <summary>Clearly better in B.</summary>
    Better,

    /// <summary>Clearly worse in B.</summary>
    Worse,
}

/// <summary>One figure of a scenario in A and B, its change in percent, and whether the change is clear.</summary>
/// <param name="Judged">Whether this figure counts for the verdict (mean, p99, req/s, errors); the others are shown only.</param>
public sealed record FigureChange(string Name, Figure? A, Figure? B, double? Percent, bool Judged, Change Change);

/// <summary>A scenario in A and B: every figure's change and the verdict, with the changes that decided it.</summary>
public sealed record ScenarioComparison(string Key, string Label, string StatusA, string StatusB, IReadOnlyList<FigureChange> Figures, Change Verdict, string Reason)
{
    /// <summary>B's key when it differs from A's (the same workload, renamed by other pool settings: <c>sleep-custom</c>); null when the same.</summary>
    public string? KeyB { get; init; }

    /// <summary>A's pool settings (<c>default</c>, <c>SetMinThreads(40)</c>).</summary>
    public string SettingsA { get; init; } = "default";

    /// <summary>B's pool settings.</summary>
    public string SettingsB { get; init; } = "default";

    /// <summary>Whether A and B ran with different pool settings: the knob the comparison is about.</summary>
    public bool SettingsDiffer => !string.Equals(SettingsA, SettingsB, StringComparison.Ordinal);
}

/// <summary>
/// <c>tplab compare A B</c>: scenario by scenario, the change of each figure and a verdict. The rule (docs/lab.md,
/// "Comparing runs"): mean and p99 latency and throughput change clearly when they move by more than the threshold
/// in percent and, where a side ran with --repeat, outside its range of runs (B's range clear of A's, or a single
/// value clear of the other side's range); errors change
/// clearly when the failed share of requests moves by more than one percentage point. A scenario is worse when any
/// of these is clearly worse, better when at least one is clearly better and none worse, else no clear change.
/// </summary>
public sealed record Comparison(ResultsFile A, ResultsFile B, double ThresholdPercent, IReadOnlyList<ScenarioComparison> Scenarios, IReadOnlyList<string> OnlyInA, IReadOnlyList<string> OnlyInB)
{
    /// <summary>Default threshold in percent.</summary>
    public const double DefaultThresholdPercent = 10;

    /// <summary>Failed share of requests, in percentage points, above which errors count as changed.</summary>
    public const double ErrorPoints = 1;

    private static readonly Dictionary<string, bool> LowerIsBetter = new(StringComparer.Ordinal)
    {
        ["meanMs"] = true, ["p99Ms"] = true, ["requestsPerSecond"] = false,
    };

    /// <summary>A threshold as typed (<c>10%</c>, <c>7.5</c>): a percentage from 0 to 1000, or a usage error naming it.</summary>
    public static double ParseThreshold(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        return NumberText.TryParseDouble(text.Trim().TrimEnd('%'), out var p) && p is >= 0 and <= 1000
            ? p
            : throw TplabException.Usage($"--fail-if-worse must be a percentage from 0 to 1000, such as 10%, got '{text}'");
    }

    /// <summary>Whether any scenario is worse in B.</summary>
    public bool AnyWorse => Scenarios.Any(s => s.Verdict == Change.Worse);

    /// <summary>
    /// Compares two results; throws a usage error when they share no scenario. Scenarios pair by key; a scenario
    /// renamed by other pool settings (<c>run --min-threads 40</c> runs <c>sleep</c> as <c>sleep-custom</c>) pairs with
    /// the one of the same workload (experiment, variant or requests, load), the default-settings one when several
    /// share it: comparing a run with and without a knob is what compare is for.
    /// </summary>
    public static Comparison Compare(ResultsFile a, ResultsFile b, double thresholdPercent = DefaultThresholdPercent)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        var pairs = Pair(a.Scenarios, b.Scenarios);
        if (pairs.Count == 0)
        {
            throw TplabException.Usage(
                $"{a.Path} and {b.Path} have no scenario in common (A: {Keys(a)}; B: {Keys(b)}); compare runs of the same experiments or plan");
        }
        var pairedA = pairs.Select(p => p.A.Key).ToHashSet(StringComparer.Ordinal);
        var pairedB = pairs.Select(p => p.B.Key).ToHashSet(StringComparer.Ordinal);
        return new Comparison(
            a, b, thresholdPercent,
            [.. pairs.Select(p => Scenario(p.A, p.B, thresholdPercent))],
            [.. a.Scenarios.Where(s => !pairedA.Contains(s.Key)).Select(s => s.Key)],
            [.. b.Scenarios.Where(s => !pairedB.Contains(s.Key)).Select(s => s.Key)]);
    }

    private static List<(ScenarioFigures A, ScenarioFigures B)> Pair(IReadOnlyList<ScenarioFigures> a, IReadOnlyList<ScenarioFigures> b)
    {
        var byKey = b.GroupBy(s => s.Key, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.First(), StringComparer.Ordinal);
        var pairs = a.Where(s => byKey.ContainsKey(s.Key)).Select(s => (A: s, B: byKey[s.Key])).ToList();
        var leftA = a.Where(s => !byKey.ContainsKey(s.Key)).ToList();
        var pairedB = pairs.Select(p => p.B.Key).ToHashSet(StringComparer.Ordinal);
        foreach (var candidate in b.Where(s => !pairedB.Contains(s.Key)))
        {
            var same = leftA.Where(s => string.Equals(s.Workload, candidate.Workload, StringComparison.Ordinal)).ToList();
            var match = same.Count == 1 ? same[0] : same.FirstOrDefault(s => s.Settings == "default");
            if (match is not null)
            {
                pairs.Add((match, candidate));
                leftA.Remove(match);
            }
        }
        return pairs;
    }

    private static ScenarioComparison Scenario(ScenarioFigures a, ScenarioFigures b, double threshold)
    {
        var figures = ResultsFile.FigureNames.Where(n => n != "requests").Select(name =>
        {
            var fa = a.Figures.GetValueOrDefault(name);
            var fb = b.Figures.GetValueOrDefault(name);
            double? percent = fa is { Value: > 0 } && fb is not null ? (fb.Value - fa.Value) / fa.Value * 100 : null;
            return name == "failed" ? Errors(a, b, percent)
                : LowerIsBetter.TryGetValue(name, out var lower) ? new FigureChange(name, fa, fb, percent, true, Judge(fa, fb, percent, lower, threshold))
                : new FigureChange(name, fa, fb, percent, false, Change.NoClearChange);
        }).ToList();
        var worse = figures.Where(f => f.Change == Change.Worse).ToList();
        var better = figures.Where(f => f.Change == Change.Better).ToList();
        var verdict = worse.Count > 0 ? Change.Worse : better.Count > 0 ? Change.Better : Change.NoClearChange;
        var decisive = verdict == Change.Worse ? worse : better;
        var reason = decisive.Count > 0 ? string.Join(", ", decisive.Select(Describe)) : $"no judged figure moved beyond {threshold.ToString("0.##", CultureInfo.InvariantCulture)}%{(figures.Any(f => f.A?.Runs > 1 || f.B?.Runs > 1) ? " outside the runs' range" : "")}";
        return new ScenarioComparison(a.Key, b.Label, a.Status, b.Status, figures, verdict, reason)
        {
            KeyB = a.Key == b.Key ? null : b.Key, SettingsA = a.Settings, SettingsB = b.Settings,
        };
    }

    private static Change Judge(Figure? a, Figure? b, double? percent, bool lowerIsBetter, double threshold)
    {
        if (a is null || b is null || percent is not double p || Math.Abs(p) <= threshold)
        {
            return Change.NoClearChange;
        }
        var up = p > 0;
        // A move inside the runs' spread is noise. Both sides repeated: B's runs must all lie beyond A's. One side
        // repeated: the other side's single value must lie outside that range.
        var (aLow, aHigh) = (a.Min ?? a.Value, a.Max ?? a.Value);
        var (bLow, bHigh) = (b.Min ?? b.Value, b.Max ?? b.Value);
        if (up ? bLow <= aHigh : bHigh >= aLow)
        {
            return Change.NoClearChange;
        }
        return up == lowerIsBetter ? Change.Worse : Change.Better;
    }

    private static FigureChange Errors(ScenarioFigures a, ScenarioFigures b, double? percent)
    {
        var fa = a.Figures.GetValueOrDefault("failed");
        var fb = b.Figures.GetValueOrDefault("failed");
        var shareA = Share(a);
        var shareB = Share(b);
        var change = shareA is double x && shareB is double y && Math.Abs(y - x) > ErrorPoints ? (y > x ? Change.Worse : Change.Better) : Change.NoClearChange;
        return new FigureChange("failed", fa, fb, percent, true, change);
    }

    /// <summary>Failed requests in percent of requests.</summary>
    private static double? Share(ScenarioFigures s) =>
        s.Figures.GetValueOrDefault("failed") is { } f && s.Figures.GetValueOrDefault("requests") is { Value: > 0 } n ? f.Value / n.Value * 100 : null;

    private static string Describe(FigureChange f) => f.Name == "failed"
        ? $"errors {Number(f.A?.Value)} → {Number(f.B?.Value)}"
        : $"{Short(f.Name)} {(f.Percent >= 0 ? "+" : "−")}{Math.Abs(f.Percent ?? 0).ToString("0", CultureInfo.InvariantCulture)}%";

    /// <summary>The name tables use for a figure.</summary>
    public static string Short(string name) => name switch
    {
        "meanMs" => "mean", "p50Ms" => "p50", "p99Ms" => "p99", "maxMs" => "max", "requestsPerSecond" => "req/s",
        "failed" => "errors", "threadsPeak" => "threads peak", "injections" => "injections", "peakRssMb" => "peak RSS MB",
        "cpuSeconds" => "CPU s", _ => name,
    };

    private static string Number(double? v) => v is double d ? d.ToString("0.##", CultureInfo.InvariantCulture) : "–";

    private static string Keys(ResultsFile r) => r.Scenarios.Count == 0 ? "none" : string.Join(", ", r.Scenarios.Select(s => s.Key).Take(6)) + (r.Scenarios.Count > 6 ? ", …" : "");
}
