using System.CommandLine;
using Tplab.Cli.Binding;
using Tplab.Common;
using Tplab.Common.Output;
using Tplab.Lab.Comparing;

namespace Tplab.Cli.Commands;

/// <summary><c>tplab compare A B</c>: two lab results side by side, scenario by scenario, with a verdict each.</summary>
internal static class CompareCommand
{
    public static Command Create()
    {
        var a = new Argument<string>("A") { Description = "The baseline: a results folder of tplab run, or its summary.json" };
        var b = new Argument<string>("B") { Description = "The candidate, compared against A" };
        var failIfWorse = new Option<string?>("--fail-if-worse") { Description = $"Exit {ExitCodes.Worse} when a scenario of B is worse than A beyond this change, e.g. 10% (also the threshold of the verdicts; default 10%)" };
        var format = new Option<string?>("--format") { Description = $"{ComparisonFormats.Catalogue.Names}; default text, or with --output the file's extension (.json, .html)" };
        format.AcceptOnly([.. ComparisonFormats.Catalogue.All.Select(f => f.Name)]);
        var output = new Option<string?>("--output", "-o") { Description = "Write to this file instead of stdout" };
        var command = new Command("compare", "Compare two lab results scenario by scenario: mean/p50/p99/max, throughput, errors, threads, injections; better, worse or no clear change")
        {
            a, b, failIfWorse, format, output,
        };
        command.Writes(output).Reads(a, "A's summary", SummaryOf).Reads(b, "B's summary", SummaryOf);
        command.SetAction(r =>
        {
            var threshold = r.GetValue(failIfWorse) is { } t ? Comparison.ParseThreshold(t) : Comparison.DefaultThresholdPercent;
            var formatOf = ComparisonFormats.Resolve(r.GetValue(format), r.GetValue(output));
            using var destination = OutputFile.Open(r.GetValue(output), Console.Out);
            var comparison = Comparison.Compare(ResultsFile.Read(r.GetValue(a)!), ResultsFile.Read(r.GetValue(b)!), threshold);
            destination.Write(w => formatOf.Write(comparison, w));
            return r.GetValue(failIfWorse) is not null && comparison.AnyWorse ? ExitCodes.Worse : ExitCodes.Ok;
        });
        return command;
    }

    // A results folder is read through its summary.json.
    private static string SummaryOf(string path) => Directory.Exists(path) ? Path.Combine(path, "summary.json") : path;
}
