using Tplab.Common;
using Tplab.Scan.Findings;
using Tplab.Scan.Output;

namespace Tplab.Scan;

/// <summary>
/// The whole of <c>tplab scan</c> as the CLI runs it: the output files opened before any work (an unwritable one fails
/// fast, exit 8), the scan, the report and the baseline written whole, and the exit code: 11 when findings at the
/// <c>--fail-on</c> level exist, 12 when no code that serves requests was read (whatever the options) or a project was
/// skipped or read in part (unless <c>--allow-partial</c>), else 0.
/// </summary>
public static class ScanRun
{
    public static async Task<int> RunAsync(ScanOptions options, IScanProgress progress, TextWriter standardOutput, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(standardOutput);
        options = options.Validated();
        var format = ScanFormats.For(options.Format, options.Output) is ScanTextFormat text
            ? text with { Top = options.Top, GroupBy = options.GroupBy }
            : ScanFormats.For(options.Format, options.Output);
        using var output = Open(options.Output);
        using var baselineFile = Open(options.WriteBaseline);
        using var planFile = Open(options.PlanFile);
        if (options.Watch)
        {
            // The first report into the file opened above, every later one written whole in its turn; ends by cancellation.
            var first = output;
            await Incremental.ScanWatch.RunAsync(options, result =>
            {
                using var file = first ?? Open(options.Output);
                first = null;
                Commit(file, w => format.Write(result, w), standardOutput, options.Output);
            }, progress, cancellationToken).ConfigureAwait(false);
            // Not reached: the watch ends only when cancelled, by the cancellation's exception (exit 130).
            return ExitCodes.Interrupted;
        }

        var result = await Scanner.ScanAsync(options, progress, cancellationToken).ConfigureAwait(false);

        Commit(output, w => format.Write(result, w), standardOutput, options.Output);
        if (baselineFile is not null)
        {
            Commit(baselineFile, Baseline.Of(result.Findings).Write, standardOutput, options.WriteBaseline);
            progress.Line($"tplab scan: wrote {result.Findings.Count} finding(s) to the baseline {options.WriteBaseline}");
        }
        if (planFile is not null)
        {
            WritePlan(result, options, planFile, progress);
        }
        if (options.FailOn is { } level && result.AtLeast(level) > 0)
        {
            progress.Line($"tplab scan: {result.AtLeast(level)} finding(s) at or above {ScanJsonFormat.SeverityId(level)} (exit {ExitCodes.Findings})");
            return ExitCodes.Findings;
        }
        // Nothing that serves requests was read: a clean report would say nothing true; --allow-partial does not change that.
        if (result.NoRequestCodeLine is { } nothing)
        {
            progress.Line($"tplab scan: {nothing} (exit {ExitCodes.Partial})");
            return ExitCodes.Partial;
        }
        if (result.Partial && !options.AllowPartial)
        {
            var what = string.Join(", ", new[] { (result.Skipped.Count, "not read"), (result.ReadInPart.Count, "read in part") }
                .Where(x => x.Item1 > 0).Select(x => $"{x.Item1} project(s) {x.Item2}"));
            progress.Line($"tplab scan: {what} (exit {ExitCodes.Partial}; --allow-partial accepts that)");
            return ExitCodes.Partial;
        }
        return ExitCodes.Ok;
    }

    // The plan is written whole or not at all; the report above is already out, so a scan with nothing to plan still
    // says what it found before the usage error.
    private static void WritePlan(ScanResult result, ScanOptions options, AtomicFile file, IScanProgress progress)
    {
        var notes = new List<string>();
        var plan = Plan.PlanBuilder.Build(result, options.PlanWrites, notes);
        foreach (var note in notes)
        {
            progress.Line("tplab scan: " + note);
        }
        Commit(file, w => Lab.Plans.PlanWriter.Write(plan, options.PlanFile!, Plan.PlanBuilder.Header(plan, result, options.PlanWrites), w), TextWriter.Null, options.PlanFile);
        var checks = plan.Scenarios.Sum(s => s.Checks.Count);
        var off = plan.SwitchedOff.Sum(s => s.Checks.Count);
        progress.Line(string.Create(System.Globalization.CultureInfo.InvariantCulture,
            $"tplab scan: wrote the plan {options.PlanFile}: {plan.Scenarios.Count} scenario(s) checking {checks} finding(s), {plan.SwitchedOff.Count} write(s) switched off ({off} finding(s); --plan-writes), {plan.Watch.Count} watched; run it with tplab run --plan {options.PlanFile}"));
    }

    private static AtomicFile? Open(string? path)
    {
        if (path is null)
        {
            return null;
        }
        try
        {
            return AtomicFile.Create(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"cannot write {path}: {e.Message}", e);
        }
    }

    private static void Commit(AtomicFile? file, Action<TextWriter> write, TextWriter standardOutput, string? path)
    {
        if (file is null)
        {
            write(standardOutput);
            return;
        }
        try
        {
            write(file.Writer);
            file.Commit();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new TplabException(ExitCodes.OutputFailed, $"cannot write {path}: {e.Message}", e);
        }
    }
}
