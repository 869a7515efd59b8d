using System.Globalization;
using Tplab.Common;
using Tplab.Load;
using Tplab.Load.Formats;

namespace Tplab.Cli.Commands;

/// <summary>Runs <c>tplab load</c>: opens the outputs, runs the library's <see cref="LoadRunner"/>, writes the reports, picks the exit code.</summary>
internal static class LoadCli
{
    public static async Task<int> RunAsync(LoadCommandOptions options, CancellationToken ct)
    {
        var targets = options.Load.EffectiveTargets;
        using var writer = CompositeReportWriter.Open(options.Outputs, Console.Out, [.. targets.Select(t => t.Label)]);
        var progress = options.Quiet || Console.IsErrorRedirected ? null : new ProgressLine(Console.Error);
        var result = await LoadRunner.RunAsync(options.Load, progress, writer, ct);
        progress?.Finish();
        var failures = writer.WriteAll(result);
        foreach (var failure in failures)
        {
            await Console.Error.WriteLineAsync($"tplab: {failure}");
        }
        var summary = result.Summary;
        if (summary.Interrupted)
        {
            await Console.Error.WriteLineAsync("tplab: interrupted: the summary covers the requests sent before Ctrl+C");
            return ExitCodes.Interrupted;
        }
        if (failures.Count > 0)
        {
            return ExitCodes.OutputFailed;
        }
        if (summary.Requests > 0 && summary.Responded == 0)
        {
            var why = summary.Errors.Count > 0 ? summary.Errors[0].Message : "no response";
            await Console.Error.WriteLineAsync($"tplab: {summary.Url.Authority} could not be reached: {why}");
            return ExitCodes.Unreachable;
        }
        return ExitCodes.Ok;
    }

    /// <summary>One stderr line rewritten in place about every second (only on a terminal).</summary>
    private sealed class ProgressLine(TextWriter error) : IProgress<LoadProgress>
    {
        private int _width;

        public void Report(LoadProgress value)
        {
            var line = string.Create(CultureInfo.InvariantCulture,
                $"  {value.Elapsed.TotalSeconds,6:0.0}s  sent {value.Sent}  done {value.Done}  in flight {value.InFlight}  errors {value.Errors}  p99 {value.P99Ms:0.0} ms");
            _width = Math.Max(_width, line.Length);
            error.Write("\r" + line.PadRight(_width));
            error.Flush();
        }

        public void Finish()
        {
            if (_width > 0)
            {
                error.Write("\r" + new string(' ', _width) + "\r");
                error.Flush();
            }
        }
    }
}
