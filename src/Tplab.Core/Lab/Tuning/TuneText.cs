using System.Globalization;
using Tplab.Reports.Terminal;
using Tplab.Launch;

namespace Tplab.Lab.Tuning;

/// <summary>tune's closing report in text: every tried value with its cost, the answer, the settings to paste, the real fix.</summary>
public static class TuneText
{
    private static readonly CultureInfo C = CultureInfo.InvariantCulture;

    /// <summary>Writes the report.</summary>
    public static void Write(TuneResult r, TextWriter w)
    {
        var o = r.Options;
        w.WriteLine();
        w.WriteLine($"tplab tune: {o.Service?.Describe() ?? "tplab's target " + o.Scenario.PathAndQuery} · {o.Scenario.Load.Describe()} · objective {o.Objective}{(r.Interrupted ? " · INTERRUPTED: partial" : "")}");
        w.WriteLine($"  {"#",2}  {"min threads",-13}{"result",-7}{"mean",10}{"p50",10}{"p99",10}{"max",10}{"req/s",8}{"errors",8}{"threads",9}{"inject.",9}{"RSS MB",8}{"CPU s",7}  knob");
        foreach (var t in r.Trials)
        {
            var f = t.Figures;
            var min = t.MinThreads?.ToString(C) ?? $"default ({r.DefaultMinThreads.ToString(C)})";
            w.WriteLine($"  {t.Number,2}  {min,-13}{(t.Meets ? "meets" : "fails"),-7}{Cells.Ms(f.MeanMs),10}{Cells.Ms(f.P50Ms),10}{Cells.Ms(f.P99Ms),10}{Cells.Ms(f.MaxMs),10}{Cells.Rate(f.RequestsPerSecond),8}{f.Failed,8}{Opt(f.ThreadsPeak),9}{Opt(f.Injections),9}{Num(f.PeakRssMb, "0"),8}{Num(f.CpuSeconds, "0.00"),7}  {t.Knob}");
        }
        w.WriteLine();
        if (r.Estimate is { } e)
        {
            w.WriteLine($"Estimate: {e.Threads.ToString(C)} threads — {e.Explanation}.");
        }
        if (r.DefaultMeets)
        {
            w.WriteLine($"Answer: the default pool (minimum {r.DefaultMinThreads.ToString(C)}, this machine's cores) already meets {o.Objective}; no minimum to set.");
        }
        else if (r.RecommendedMinThreads is int n)
        {
            w.WriteLine($"Answer: minimum worker threads {n.ToString(C)} is the least tried value that met {o.Objective}" +
                (r.HighestFailing is int bad ? $"; {bad.ToString(C)} did not." : "."));
            var meeting = r.Trials.LastOrDefault(t => t.Meets && t.MinThreads == n);
            if (meeting is not null)
            {
                w.WriteLine($"Cost at {n.ToString(C)}: peak {Opt(meeting.Figures.ThreadsPeak)} pool threads, peak RSS {Num(meeting.Figures.PeakRssMb, "0.#")} MB, CPU {Num(meeting.Figures.CpuSeconds, "0.00")} s during the load.");
            }
        }
        else
        {
            w.WriteLine($"Answer: no tried minimum up to {Opt(r.HighestFailing)} met {o.Objective}: something other than the pool's size limits this service (see the trials).");
        }
        var noEffect = r.KnobsWithoutEffect.Select(t => t.Knob).ToList();
        if (noEffect.Count > 0)
        {
            w.WriteLine($"Made no difference at the default minimum (objective still missed, not 10% better than the default run): {string.Join(", ", noEffect)}.");
        }
        if (r.RecommendedMinThreads is int m)
        {
            w.WriteLine();
            w.WriteLine("Ready to paste (any one of them):");
            foreach (var (where, text) in ThreadPoolForms.PasteReady(m))
            {
                w.WriteLine($"  {where}:");
                w.WriteLine($"    {text}");
            }
        }
        w.WriteLine();
        w.WriteLine(TuneAdvice.RealFix(r));
        w.WriteLine();
        w.WriteLine($"Results: {Path.Combine(r.Folder, "tune.json")} and the chart {Path.Combine(r.Folder, "tune.html")}");
    }

    private static string Opt(int? v) => v?.ToString(C) ?? "–";

    private static string Num(double? v, string format) => v?.ToString(format, C) ?? "–";
}
