using Tplab.Common;
using Tplab.Load.Formats;

namespace Tplab.Load;

/// <summary>The terminal of a load run: reports without a file go to <see cref="Out"/>, progress and notices to <see cref="Error"/>.</summary>
/// <param name="ErrorIsTerminal">Whether <see cref="Error"/> is a terminal, where the progress line is redrawn in place.</param>
public sealed record LoadTerminal(TextWriter Out, TextWriter Error, bool ErrorIsTerminal);

/// <summary>One <c>tplab load</c>: what to send and how (<see cref="LoadOptions"/>), where the reports go, whether to show progress.</summary>
/// <param name="Outputs">The formats and their files (<see cref="LoadFormats.Outputs"/>).</param>
/// <param name="Quiet">No progress line.</param>
public sealed record LoadRunOptions(LoadOptions Load, IReadOnlyList<ReportOutput> Outputs, bool Quiet = false)
{
    /// <summary>
    /// These options, with the load keeping what the formats read, validated. Only the html page needs every record in
    /// memory (its per-request timeline); csv and hlog stream; only ab's percentile table reads the exact latencies.
    /// </summary>
    public LoadRunOptions Validated()
    {
        ArgumentNullException.ThrowIfNull(Load);
        ArgumentNullException.ThrowIfNull(Outputs);
        return this with
        {
            Load = (Load with
            {
                KeepRecords = Outputs.Any(o => o.Format is IResultFormat),
                ExactLatencies = Outputs.Any(o => o.Format is ISummaryFormat { NeedsExactLatencies: true }),
            }).Validate(),
        };
    }
}

/// <summary>
/// <c>tplab load</c>, as the CLI runs it: opens the outputs (an unwritable one fails before any load), runs
/// <see cref="LoadRunner"/>, writes the reports and decides the exit code (<see cref="LoadExit"/>); or, with
/// <c>--search</c>, the highest rate that meets the thresholds (<see cref="RateSearch"/>).
/// </summary>
public static class LoadRun
{
    /// <summary>Runs the load; returns the exit code (docs/load.md), or throws a <see cref="TplabException"/> for a failure before it began.</summary>
    public static async Task<int> RunAsync(LoadRunOptions options, LoadTerminal terminal, CancellationToken ct)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(terminal);
        options = options.Validated();
        var targets = options.Load.EffectiveTargets;
        using var writer = CompositeReportWriter.Open(options.Outputs, terminal.Out, [.. targets.Select(t => t.Label)]);
        var progress = options.Quiet || !terminal.ErrorIsTerminal ? null : new ProgressLine(terminal.Error);
        var result = await LoadRunner.RunAsync(options.Load, progress, writer, ct).ConfigureAwait(false);
        progress?.Finish();
        var failures = writer.WriteAll(result);
        if (writer.OutputClosed && failures.Count == 0)
        {
            // The reader took what it wanted (| head -1) and left: the files were still written; nothing to say.
            return ExitCodes.OutputClosed;
        }
        foreach (var failure in failures)
        {
            await terminal.Error.WriteLineAsync("tplab: " + TerminalText.Line(failure)).ConfigureAwait(false);
        }
        var (code, message) = LoadExit.Decide(result.Summary, failures);
        if (message is not null)
        {
            await terminal.Error.WriteLineAsync("tplab: " + TerminalText.Line(message)).ConfigureAwait(false);
        }
        return code;
    }

    /// <summary>
    /// <c>--search START..MAX</c>: open-loop steps from START by <paramref name="step"/> (default START) until a threshold
    /// fails; the table on <see cref="LoadTerminal.Out"/>, each step on <see cref="LoadTerminal.Error"/>.
    /// </summary>
    public static async Task<int> SearchAsync(LoadOptions load, string range, double? step, LoadTerminal terminal, CancellationToken ct)
    {
        ArgumentNullException.ThrowIfNull(load);
        ArgumentNullException.ThrowIfNull(terminal);
        var (start, max) = RateSearch.ParseRange(range);
        (load with { Rate = start }).Validate();
        var steps = await RateSearch.RunAsync(load, start, max, step ?? start, s => terminal.Error.WriteLine("tplab: " + RateSearch.Describe(s)), ct).ConfigureAwait(false);
        RateSearch.Write(steps, terminal.Out);
        return steps.Any(s => s.Passed) ? ExitCodes.Ok : ExitCodes.ThresholdsFailed;
    }
}
