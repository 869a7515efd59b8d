using Tplab.Common;
using Tplab.Load.Summary;

namespace Tplab.Load;

/// <summary>
/// How a finished <c>tplab load</c> ends (docs/load.md#exit-codes), in one place for the CLI and any other caller:
/// the exit code and the one line to print on stderr, if any.
/// </summary>
public static class LoadExit
{
    /// <summary>The code and message for <paramref name="summary"/>, given the outputs that failed to write.</summary>
    public static (int Code, string? Message) Decide(LoadSummary summary, IReadOnlyList<string> outputFailures)
    {
        ArgumentNullException.ThrowIfNull(summary);
        ArgumentNullException.ThrowIfNull(outputFailures);
        if (summary.Interrupted)
        {
            return (ExitCodes.Interrupted, "interrupted: the summary covers the requests sent before Ctrl+C");
        }
        if (outputFailures.Count > 0)
        {
            return (ExitCodes.OutputFailed, null);
        }
        if (summary.Requests > 0 && summary.Responded == 0)
        {
            var why = summary.Errors.Count > 0 ? summary.Errors[0].Message : "no response";
            return (ExitCodes.Unreachable, $"{summary.Url.Authority} could not be reached: {why}");
        }
        var failed = summary.Thresholds.Where(t => !t.Passed).Select(t => t.Threshold).ToList();
        if (failed.Count > 0)
        {
            var early = summary.AbortedBy is { } by ? $"; sending stopped early when {by} failed" : "";
            return (ExitCodes.ThresholdsFailed, $"threshold failed: {string.Join(", ", failed)}{early}");
        }
        return (ExitCodes.Ok, null);
    }
}
