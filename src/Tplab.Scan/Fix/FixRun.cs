using Tplab.Common;
using Tplab.Scan.Fix.Applying;
using Tplab.Scan.Fix.Output;

namespace Tplab.Scan.Fix;

/// <summary>
/// The whole of <c>tplab fix</c> as the CLI runs it: the output file opened before any work, the fix, then the patch or
/// the report; with <c>--apply</c> the files written all or none (refused when git shows uncommitted changes in one of
/// them, unless <c>--force</c>) and <c>--verify</c>'s command run, every change reverted when it fails (exit 1). Exit 12
/// when a selected finding was refused or only partly fixed (0 with <c>--allow-partial</c> when some were fixed); 0 when
/// every one was fixed (or there was none). With
/// <c>--plan</c>, the proof plan (<see cref="FixPlan"/>) is written last, whole.
/// </summary>
public static class FixRun
{
    public static async Task<int> RunAsync(FixOptions options, IScanProgress progress, TextWriter standardOutput, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(progress);
        ArgumentNullException.ThrowIfNull(standardOutput);
        options = options.Validated();
        using var output = options.Output is { } o ? AtomicFile.OpenOutput(o, "--output") : null;
        using var planFile = options.Plan is { } p ? AtomicFile.OpenOutput(p, "--plan") : null;

        if (Directory.Exists(options.Path) || File.Exists(options.Path))
        {
            // A fix --apply killed mid-way left a journal: its originals are put back before anything is read.
            await FixApply.RecoverAsync(options, progress, cancellationToken).ConfigureAwait(false);
        }
        var result = await Fixer.FixAsync(options, progress, cancellationToken).ConfigureAwait(false);
        // The proof plan is built before any file is edited: a fix with nothing to prove under load changes nothing.
        var plan = planFile is null ? null : FixPlan.Build(result, options, progress);

        // Where fix may write is one rule (ApplyScope), for the patch's paths and for --apply's files alike.
        result = await FixApply.ContainAsync(result, options, cancellationToken).ConfigureAwait(false);
        if (options.Apply)
        {
            result = await FixApply.ApplyAsync(result, options, progress, cancellationToken).ConfigureAwait(false);
        }
        var format = options.EffectiveFormat;
        if (output is null)
        {
            format.Write(result, standardOutput);
        }
        else
        {
            output.Finish(w => format.Write(result, w));
        }
        if (format.ChangesToMake is not null)
        {
            // The patch or the SARIF log is the output; the summary goes where people read.
            var summary = new StringWriter();
            FixFormats.Text.Write(result, summary);
            foreach (var line in summary.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries))
            {
                progress.Line(line.TrimEnd('\r'));
            }
        }
        if (plan is not null)
        {
            FixPlan.Write(plan, result, options, planFile!, progress);
        }
        var incomplete = result.Count(FixStatus.Refused) + result.Count(FixStatus.PartlyFixed);
        var someFixed = result.Count(FixStatus.Fixed) + result.Count(FixStatus.PartlyFixed) > 0;
        return incomplete == 0 || (options.AllowPartial && someFixed) ? ExitCodes.Ok : ExitCodes.Partial;
    }
}
