using Tplab.Load;
using Tplab.Load.Formats;

namespace Tplab.Cli.Commands;

/// <summary>Runs <c>tplab load</c>: opens the outputs, runs the library's <see cref="LoadRunner"/>, writes the reports, prints the library's exit decision.</summary>
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
        var (code, message) = LoadExit.Decide(result.Summary, failures);
        if (message is not null)
        {
            await Console.Error.WriteLineAsync($"tplab: {message}");
        }
        return code;
    }
}
