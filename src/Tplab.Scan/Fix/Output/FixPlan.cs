using System.Globalization;
using Tplab.Common;
using Tplab.Lab.Experiments;
using Tplab.Lab.Plans;
using Tplab.Scan.Plan;

namespace Tplab.Scan.Fix.Output;

/// <summary>
/// <c>tplab fix --plan FILE</c>: the plan that proves a fix under load — scan's plan (<see cref="PlanBuilder"/>, the same
/// file <c>scan --plan</c> writes) for the findings this run fixed or partly fixed only, run before and after
/// <c>--apply</c> and compared. Built before any file is edited, so a fix with nothing to prove changes nothing.
/// </summary>
public static class FixPlan
{
    private const string By = "tplab fix --plan";

    /// <summary>The plan for <paramref name="result"/>'s changed findings; a usage error when none has an endpoint to load.</summary>
    public static Experiment Build(FixResult result, FixOptions options, IScanProgress progress)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(progress);
        if (result.Changed() is not { Findings.Count: > 0 } changed)
        {
            throw TplabException.Usage(result.Count(FixStatus.Fixed) + result.Count(FixStatus.PartlyFixed) == 0
                ? $"--plan: no finding was fixed ({result.Count(FixStatus.Refused)} refused), so there is nothing to prove under load; nothing was changed"
                : $"--plan: every endpoint the fixed findings are on still reaches a refused one ({string.Join(", ", result.NotHealed().Keys.Order(StringComparer.Ordinal).Take(3))}), so none would be healed under load; nothing was changed");
        }
        var notes = new List<string>();
        var fixedRoots = result.Targets.Where(t => result.Outcomes.Any(o => o.Id == t.Id && o.Status != FixStatus.Refused)).SelectMany(t => t.Roots).ToHashSet(StringComparer.Ordinal);
        foreach (var (root, refused) in result.NotHealed().Where(n => fixedRoots.Contains(n.Key)).OrderBy(n => n.Key, StringComparer.Ordinal))
        {
            notes.Add($"--plan leaves out {root}: not healed, it still reaches {refused.Id} ({refused.BlockingCall} in {refused.UserMethod}), refused{(refused.Check is { } check ? " " + check : "")}");
        }
        var plan = PlanBuilder.Build(changed, options.PlanWrites, notes, By);
        foreach (var note in notes)
        {
            progress.Line("tplab fix: " + note);
        }
        return plan;
    }

    /// <summary>Writes <paramref name="plan"/> whole into <paramref name="file"/> (opened before the work) and says what it checks.</summary>
    public static void Write(Experiment plan, FixResult result, FixOptions options, AtomicFile file, IScanProgress progress)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(file);
        ArgumentNullException.ThrowIfNull(progress);
        file.Finish(w => PlanWriter.Write(plan, options.Plan!, PlanBuilder.Header(plan, result.Changed()!, options.PlanWrites, By), w));
        var checks = plan.Scenarios.Sum(s => s.Checks.Count);
        var fix = options.Path == "." ? "tplab fix" : $"tplab fix {options.Path}";
        var next = result.Applied
            ? $"run it now with tplab run --plan {options.Plan} --results after, and tplab compare a run from before the fix with it"
            : $"run it before and after --apply: tplab run --plan {options.Plan} --results before; {fix} --apply; tplab run --plan {options.Plan} --results after; tplab compare before/<run> after/<run>";
        progress.Line(string.Create(CultureInfo.InvariantCulture,
            $"tplab fix: wrote the plan {options.Plan}: {plan.Scenarios.Count} scenario(s) checking {checks} fixed finding(s), {plan.SwitchedOff.Count} write(s) switched off (--plan-writes), {plan.Watch.Count} watched; {next}"));
    }
}
