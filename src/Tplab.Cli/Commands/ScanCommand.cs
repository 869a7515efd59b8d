using System.CommandLine;
using Tplab.Cli.Binding;
using Tplab.Common;
using Tplab.Scan;
using Tplab.Scan.Findings;
using Tplab.Scan.Output;

namespace Tplab.Cli.Commands;

/// <summary>
/// <c>tplab scan [PATH]</c>: the code that will block pool threads, read from source, from every entry point. Roslyn
/// loads only when the action runs: building this command touches no Roslyn type, so other commands start without it.
/// </summary>
internal static class ScanCommand
{
    public static Command Create()
    {
        var path = new Argument<string>("PATH") { Description = "A solution (.sln, .slnx, .slnf), a C# project (.csproj) or a folder (default: the current folder)", Arity = ArgumentArity.ZeroOrOne, DefaultValueFactory = _ => "." };
        var format = new Option<string?>("--format") { Description = $"{ScanFormats.Names} (default: from -o's extension, else text)" };
        format.AcceptOnly([.. ScanFormats.Catalogue.All.Select(f => f.Name)]);
        var output = new Option<string?>("--output", "-o") { Description = "Write the report to this file (checked before the scan starts)" };
        var failOn = new Option<string?>("--fail-on") { Description = "Exit 11 when findings at or above this severity exist: warning or error (baselined ones do not count)" };
        failOn.AcceptOnly("warning", "error");
        var includeTests = new Option<bool>("--include-tests") { Description = "Scan test projects too" };
        var allowPartial = new Option<bool>("--allow-partial") { Description = "Do not exit 12 when a project could not be read in full" };
        var noRestore = new Option<bool>("--no-restore") { Description = "Do not restore projects that have no restore output; analyse them without their packages" };
        var baseline = new Option<string?>("--baseline") { Description = "Accept the findings in this baseline file (reported as baselined, not counted for --fail-on)" };
        var writeBaseline = new Option<string?>("--write-baseline") { Description = "Write this scan's findings to a baseline file" };
        var config = new Option<string?>("--config") { Description = "Your own blocking APIs (default: tplab-scan.json in the scanned folder; docs/scan.md)" };
        var plan = new Option<string?>("--plan") { Description = "Also write a lab plan for the scanned service: one scenario per flagged endpoint, each marked with the finding it checks (run it with tplab run --plan FILE)" };
        var top = new Option<int?>("--top") { Description = "Text report: the N worst sites only (or N entry points with --group-by endpoint); JSON and SARIF hold every site" };
        var groupBy = new Option<string?>("--group-by") { Description = "Text report: site (each blocking site once, worst first; the default) or endpoint (each entry point with the sites it reaches)" };
        groupBy.AcceptOnly("site", "endpoint");
        var verbose = new Option<bool>("--verbose") { Description = "Also list every error of a skipped or partly read project (package resolution, unresolved names)" };
        var maxDepth = new Option<int?>("--max-depth") { Description = $"Longest chain of calls followed from an entry point (default {ScanOptions.DefaultMaxDepth}, at most {ScanOptions.MaxMaxDepth}); the report says when a walk reached it" };
        var planWrites = new Option<bool>("--plan-writes") { Description = "Keep the plan's POST, PUT, PATCH and DELETE scenarios switched on (default: written switched off, so a plan never writes by surprise)" };
        var cache = new Option<string?>("--cache") { Description = "Keep the scan's result and inputs in this folder and reuse it when nothing changed (default: obj/tplab-scan under the scanned folder)" };
        var noCache = new Option<bool>("--no-cache") { Description = "Neither reuse nor write the cache: always a full scan" };
        var changedSince = new Option<string?>("--changed-since") { Description = "Only the findings whose chain passes through a file changed since the merge base with this git ref (a pull request's base), uncommitted changes included" };
        var watch = new Option<bool>("--watch") { Description = "Keep running: scan again after every change to the scanned code and rewrite the report (an edit to sources is rebuilt in place, in seconds; Ctrl+C stops)" };
        var command = new Command("scan", "Find the code that blocks thread-pool threads before it ships: every blocking call reached from an endpoint, middleware, hosted service or timer, with the chain of calls, file and line, and the fix")
        {
            path, format, output, failOn, top, groupBy, verbose, includeTests, allowPartial, noRestore, baseline, writeBaseline, config, plan, planWrites, maxDepth, cache, noCache, changedSince, watch,
        };
        command.Writes(output).Writes(writeBaseline).Writes(plan).Reads(baseline, "the --baseline read").Reads(config, "the --config read").ReadsProject(path);
        command.SetAction((r, ct) => Run(new ScanOptions
        {
            Path = r.GetValue(path) ?? ".",
            Format = r.GetValue(format),
            Output = r.GetValue(output),
            FailOn = r.GetValue(failOn) switch { "warning" => Severity.Warning, "error" => Severity.Error, _ => null },
            IncludeTests = r.GetValue(includeTests),
            AllowPartial = r.GetValue(allowPartial),
            Restore = !r.GetValue(noRestore),
            BaselineFile = r.GetValue(baseline),
            WriteBaseline = r.GetValue(writeBaseline),
            ConfigFile = r.GetValue(config),
            PlanFile = r.GetValue(plan),
            PlanWrites = r.GetValue(planWrites),
            Top = r.GetValue(top),
            GroupBy = r.GetValue(groupBy) == "endpoint" ? ScanGrouping.Endpoint : ScanGrouping.Site,
            Verbose = r.GetValue(verbose),
            MaxDepth = r.GetValue(maxDepth) ?? ScanOptions.DefaultMaxDepth,
            Cache = !r.GetValue(noCache),
            CacheFolder = r.GetValue(cache),
            ChangedSince = r.GetValue(changedSince),
            Watch = r.GetValue(watch),
        }, ct));
        return command;
    }

    private static Task<int> Run(ScanOptions options, CancellationToken cancellationToken) =>
        ScanRun.RunAsync(options, new ScanProgressLine(Console.Error, interactive: !Console.IsErrorRedirected), Console.Out, cancellationToken);
}
