using System.Globalization;
using Tplab.Reports.Terminal;

namespace Tplab.Lab.Comparing;

/// <summary><c>tplab compare</c>'s text: per scenario its verdict with the reason, then each figure in A and B and the change.</summary>
public static class ComparisonText
{
    private static readonly CultureInfo C = CultureInfo.InvariantCulture;

    /// <summary>Writes the comparison.</summary>
    public static void Write(Comparison c, TextWriter w)
    {
        w.WriteLine($"A: {c.A.Path}{State(c.A)}");
        w.WriteLine($"B: {c.B.Path}{State(c.B)}");
        w.WriteLine($"A change counts when it exceeds {c.ThresholdPercent.ToString("0.##", C)}% (errors: {Comparison.ErrorPoints.ToString(C)} point of the failed share) and, where a side ran with --repeat, lies outside its runs' range.");
        foreach (var s in c.Scenarios)
        {
            w.WriteLine();
            var status = s.StatusA == "completed" && s.StatusB == "completed" ? "" : $" [A {s.StatusA}, B {s.StatusB}]";
            w.WriteLine($"{s.Key}{(s.KeyB is { } kb ? $" ↔ {kb}" : "")}: {Verdict(s.Verdict)} ({s.Reason}){status}");
            if (s.SettingsDiffer)
            {
                w.WriteLine($"  pool settings: A {s.SettingsA} → B {s.SettingsB}");
            }
            var shown = s.Figures.Where(f => f.A is not null || f.B is not null).ToList();
            if (shown.Count == 0)
            {
                // A scenario that failed before its load (or a summary without figures) on both sides.
                w.WriteLine("  no figure on either side");
                continue;
            }
            var width = shown.Max(f => Math.Max(Value(f.Name, f.A).Length, Value(f.Name, f.B).Length)) + 3;
            w.WriteLine($"  {"figure",-14}{"A".PadLeft(width)}{"B".PadLeft(width)}{"change",10}");
            foreach (var f in shown)
            {
                var mark = f.Change switch { Change.Worse => "  worse", Change.Better => "  better", _ => "" };
                w.WriteLine($"  {Comparison.Short(f.Name),-14}{Value(f.Name, f.A).PadLeft(width)}{Value(f.Name, f.B).PadLeft(width)}{Percent(f.Percent),10}{mark}");
            }
        }
        if (c.OnlyInA.Count > 0 || c.OnlyInB.Count > 0)
        {
            w.WriteLine();
        }
        if (c.OnlyInA.Count > 0)
        {
            w.WriteLine($"only in A (not compared): {string.Join(", ", c.OnlyInA)}");
        }
        if (c.OnlyInB.Count > 0)
        {
            w.WriteLine($"only in B (not compared): {string.Join(", ", c.OnlyInB)}");
        }
    }

    // A side that did not run to its end says so: its figures are whole but cover only what ran.
    private static string State(ResultsFile r) =>
        r.Unfinished is { } why ? $" (unfinished: {why}; comparing the scenarios it finished)"
        : r.Interrupted ? " (interrupted: comparing the scenarios it finished)"
        : "";

    /// <summary>The verdict in words.</summary>
    public static string Verdict(Change change) => change switch
    {
        Change.Better => "better",
        Change.Worse => "worse",
        _ => "no clear change",
    };

    /// <summary>A figure's value, with the runs' range when it has one.</summary>
    public static string Value(string name, Figure? f)
    {
        if (f is null)
        {
            return "–";
        }
        string One(double v) => name.EndsWith("Ms", StringComparison.Ordinal) ? Cells.Ms(v) : v.ToString(v >= 100 ? "0" : "0.##", C);
        return f.Min is double min && f.Max is double max ? $"{One(f.Value)} ({One(min)}–{One(max)})" : One(f.Value);
    }

    /// <summary>A change in percent with its sign.</summary>
    public static string Percent(double? p) => p is double v ? (v >= 0 ? "+" : "−") + Math.Abs(v).ToString("0.#", C) + "%" : "–";
}
