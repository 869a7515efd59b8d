using System.Globalization;
using Tplab.Lab.Running;
using Tplab.Watch.Verdicts;

namespace Tplab.Lab.Terminal;

/// <summary>A scenario's verdict, injections and threads as terminal cells (markup).</summary>
internal static class ScenarioCells
{
    private static readonly CultureInfo C = CultureInfo.InvariantCulture;

    public static string Verdict(ScenarioResult r)
    {
        var verdict = r.Timeline?.Verdict;
        var text = verdict switch
        {
            PoolVerdict.Starving => "[red]starving[/]",
            PoolVerdict.Recovering => "[yellow]recovering[/]",
            PoolVerdict.LockContention => "[red]lock-contention[/]",
            PoolVerdict.CpuSaturated => "[yellow]cpu-saturated[/]",
            PoolVerdict.Healthy => "[green]healthy[/]",
            _ => "–",
        };
        return r.Status switch
        {
            ScenarioStatus.Completed => text,
            ScenarioStatus.Interrupted => text + " [red](interrupted)[/]",
            ScenarioStatus.DeadlineReached => text + " [yellow](deadline)[/]",
            _ => "[red]failed[/]",
        };
    }

    public static string Injections(ScenarioResult r) =>
        r.Timeline is { InjectionsByReason.Count: > 0 } t
            ? string.Join(", ", t.InjectionsByReason.Select(kv => $"{kv.Key}\u00a0{kv.Value.ToString(C)}"))
            : r.Timeline is null ? "–" : "none";

    public static string Threads(ScenarioResult r) =>
        r.Timeline is { } t ? $"{t.ThreadsStart.ToString(C)} → {t.ThreadsPeak.ToString(C)}" : "–";
}
