using System.CommandLine;
using Tplab.Cli.Binding;
using Tplab.Scan.Findings;
using Tplab.Scan.Fix;
using Tplab.Scan.Fix.Output;
using Tplab.Scan.Output;

namespace Tplab.Cli.Commands;

/// <summary>
/// <c>tplab fix [PATH]</c>: scan's findings rewritten async all the way up, compiled, as a patch or in place. Roslyn
/// loads only when the action runs.
/// </summary>
internal static class FixCommand
{
    public static Command Create()
    {
        var path = new Argument<string>("PATH") { Description = "A solution (.sln, .slnx, .slnf), a C# project (.csproj) or a folder (default: the current folder)", Arity = ArgumentArity.ZeroOrOne, DefaultValueFactory = _ => "." };
        var route = new Option<string?>("--route") { Description = "Only the findings on this endpoint: 'GET /orders/{id}' or '/orders/{id}'" };
        var finding = new Option<string[]>("--finding") { Description = "Only this finding (scan's id, tp-…); repeat for several", AllowMultipleArgumentsPerToken = false };
        var severity = new Option<string?>("--severity") { Description = "Only findings at this severity or above: warning (default) or error" };
        severity.AcceptOnly("warning", "error");
        var from = new Option<string?>("--from") { Description = "Only the findings of this scan report of the same solution (scan.json or scan.sarif)" };
        var apply = new Option<bool>("--apply") { Description = "Edit the files in place (all or none); default: write a unified diff and change nothing" };
        var force = new Option<bool>("--force") { Description = "With --apply: edit files that have uncommitted changes in git" };
        var output = new Option<string?>("--output", "-o") { Description = "Write the patch or report to this file (checked before the work starts)" };
        var format = new Option<string?>("--format") { Description = $"{FixFormats.Catalogue.Help}; without it, the format -o's extension means (as scan), else patch, or text with --apply" };
        format.AcceptOnly([.. FixFormats.Catalogue.All.Select(f => f.Name)]);
        var rename = new Option<string?>("--rename") { Description = "Async suffix on changed methods: async or keep (default: the solution's convention)" };
        rename.AcceptOnly("async", "keep");
        var addCancellation = new Option<bool>("--add-cancellation") { Description = "Give each method made async that has no CancellationToken a 'CancellationToken cancellationToken = default' parameter (its family too) and pass it to the new async calls; default: no parameter is added" };
        var verify = new Option<string?>("--verify") { Description = "With --apply: run this command after writing (e.g. \"dotnet test\"); every change is reverted when it fails" };
        var plan = new Option<string?>("--plan") { Description = "Also write the lab plan that proves the fix under load (scan --plan's plan, for the fixed findings' endpoints): run it before and after --apply, then compare" };
        var planWrites = new Option<bool>("--plan-writes") { Description = "Keep the plan's POST, PUT, PATCH and DELETE scenarios switched on (default: written switched off, so a plan never writes by surprise)" };
        var allowPartial = new Option<bool>("--allow-partial") { Description = "Exit 0 when some findings were fixed and others refused or partly fixed (default: exit 12), so a loop goes on with what was fixed" };
        var maxMethods = new Option<int>("--max-methods") { Description = "Most methods one finding's fix may change; a wider one is refused before its callers are visited (default 200)", DefaultValueFactory = _ => 200 };
        var analyzers = new Option<bool>("--analyzers") { Description = "Run each project's analyzers in the compile check too and list the warnings a fix adds (an error they add refuses it); default: the compiler's diagnostics only" };
        var config = new Option<string?>("--config") { Description = "Your own blocking APIs, as scan reads them (default: tplab-scan.json in the folder fixed; docs/scan.md)" };
        var noRestore = new Option<bool>("--no-restore") { Description = "Do not restore projects that have no restore output" };
        var maxDepth = new Option<int?>("--max-depth") { Description = $"Longest chain of calls scan follows from an entry point (default {Tplab.Scan.ScanOptions.DefaultMaxDepth}, at most {Tplab.Scan.ScanOptions.MaxMaxDepth})" };
        var command = new Command("fix", "Rewrite scan's findings async all the way up: the blocking call awaited, every caller, interface and implementation updated, each fix compiled before it is kept; a patch by default, --apply to edit in place")
        {
            path, route, finding, severity, from, apply, force, output, format, rename, addCancellation, verify, plan, planWrites, allowPartial, maxMethods, analyzers, config, noRestore, maxDepth,
        };
        command.Writes(output).Writes(plan).Reads(from, "the --from report").Reads(config, "the --config read").ReadsProject(path);
        command.SetAction((r, ct) => FixRun.RunAsync(new FixOptions
        {
            Path = r.GetValue(path) ?? ".",
            Route = r.GetValue(route),
            FindingIds = r.GetValue(finding) ?? [],
            Severity = r.GetValue(severity) switch { "error" => Severity.Error, "warning" => Severity.Warning, _ => null },
            From = r.GetValue(from),
            Apply = r.GetValue(apply),
            Force = r.GetValue(force),
            Output = r.GetValue(output),
            Format = r.GetValue(format),
            Rename = r.GetValue(rename) switch { "async" => RenameMode.Async, "keep" => RenameMode.Keep, _ => RenameMode.Auto },
            AddCancellation = r.GetValue(addCancellation),
            Verify = r.GetValue(verify),
            Plan = r.GetValue(plan),
            PlanWrites = r.GetValue(planWrites),
            Restore = !r.GetValue(noRestore),
            ConfigFile = r.GetValue(config),
            Analyzers = r.GetValue(analyzers),
            MaxDepth = r.GetValue(maxDepth) ?? Tplab.Scan.ScanOptions.DefaultMaxDepth,
            AllowPartial = r.GetValue(allowPartial),
            MaxMethods = r.GetValue(maxMethods),
        }, new ScanProgressLine(Console.Error, interactive: !Console.IsErrorRedirected), Console.Out, ct));
        return command;
    }
}
