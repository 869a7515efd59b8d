using System.Globalization;
using Tplab.Common;

namespace Tplab.Lab.Running;

/// <summary>
/// What a lab run amounts to, for its exit code and its last line: done; done in part (scenarios failed or experiments
/// skipped, each named: <see cref="ExitCodes.Partial"/>); nothing produced a result (the shared reason's code, else
/// <see cref="ExitCodes.Failed"/>); interrupted. A run whose only scenario failed never reports success.
/// </summary>
/// <param name="Message">The one line saying why the code is not 0; null when it is.</param>
public sealed record LabOutcome(int ExitCode, string? Message)
{
    /// <summary>Most failures named in the line; the rest are counted (every one is in summary.json).</summary>
    private const int Named = 3;

    /// <summary>The outcome of <paramref name="lab"/>; with <paramref name="allowPartial"/> a run done in part exits 0 (its line is still said).</summary>
    public static LabOutcome Of(LabResult lab, bool allowPartial = false)
    {
        ArgumentNullException.ThrowIfNull(lab);
        var c = CultureInfo.InvariantCulture;
        var scenarios = lab.Scenarios.ToList();
        var failed = scenarios.Where(s => s.Status == ScenarioStatus.Failed).ToList();
        var kept = $"results in {lab.Folder}";
        if (lab.Interrupted)
        {
            var finished = scenarios.Count(s => s.Status != ScenarioStatus.Interrupted);
            return new(ExitCodes.Interrupted, string.Create(c, $"interrupted after {finished} finished scenario(s); {kept}, marked interrupted"));
        }
        if (scenarios.Count == 0)
        {
            var skipped = string.Join("; ", lab.Skipped.Select(s => $"{s.Experiment}: {s.Reason}"));
            return new(ExitCodes.Environment, $"nothing ran: every experiment was skipped ({skipped})");
        }
        if (failed.Count == scenarios.Count)
        {
            var codes = failed.Select(s => s.FailedWith ?? ExitCodes.Failed).Distinct().ToList();
            var code = codes.Count == 1 ? codes[0] : ExitCodes.Failed;
            var what = scenarios.Count == 1 ? "the only scenario failed" : string.Create(c, $"no scenario produced a result (all {scenarios.Count} failed)");
            return new(code, $"{what}: {Describe(failed)}; {kept}");
        }
        if (failed.Count > 0 || lab.Skipped.Count > 0)
        {
            var parts = new List<string>();
            if (failed.Count > 0)
            {
                parts.Add(string.Create(c, $"{failed.Count} of {scenarios.Count} scenarios failed: {Describe(failed)}"));
            }
            if (lab.Skipped.Count > 0)
            {
                parts.Add($"skipped {string.Join("; ", lab.Skipped.Select(s => $"{s.Experiment} ({s.Reason})"))}");
            }
            return new(allowPartial ? ExitCodes.Ok : ExitCodes.Partial, $"done in part: {string.Join("; ", parts)}; {kept}");
        }
        return new(ExitCodes.Ok, null);
    }

    private static string Describe(IReadOnlyList<ScenarioResult> failed)
    {
        var named = failed.Take(Named).Select(s => $"{s.Scenario.Experiment}/{s.Scenario.Id} ({s.Error ?? "failed"})");
        var more = failed.Count > Named ? string.Create(CultureInfo.InvariantCulture, $", and {failed.Count - Named} more") : "";
        return string.Join(", ", named) + more;
    }
}
