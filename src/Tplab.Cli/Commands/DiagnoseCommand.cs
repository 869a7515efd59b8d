using System.CommandLine;
using Tplab.Cli.Binding;
using Tplab.Common;
using Tplab.Diagnose;
using Tplab.Diagnose.Output;

namespace Tplab.Cli.Commands;

/// <summary><c>tplab diagnose</c>: which code blocks the pool threads of a .NET process, live or from a trace or dump.</summary>
internal static class DiagnoseCommand
{
    public static Command Create()
    {
        var pid = new Argument<int?>("PID") { Description = "Process id of a running .NET 8+ process of the same user", Arity = ArgumentArity.ZeroOrOne }.ProcessId();
        var name = new Option<string?>("--name", "-n") { Description = "Diagnose the one .NET process with this name (the app's dll or executable name)" };
        var trace = new Option<string?>("--trace") { Description = "Diagnose a .nettrace collected elsewhere (dotnet-trace command line: docs/diagnose.md)" };
        var dump = new Option<string?>("--dump") { Description = "Diagnose a process dump (createdump, dotnet-dump): the pool threads' stacks at that moment" };
        var keepTrace = new Option<string?>("--keep-trace") { Description = "Keep the raw .nettrace of a live capture in this file (re-read it with --trace)" };
        var duration = new Option<string>("--duration") { Description = "How long to record stacks: 5s, 500ms, 1m (200ms to 2m)", DefaultValueFactory = _ => "5s" };
        var format = new Option<string>("--format") { Description = DiagnosisFormats.Catalogue.Help, DefaultValueFactory = _ => DiagnosisFormats.Catalogue.Default.Name }.AcceptOnly([.. DiagnosisFormats.Catalogue.All.Select(w => w.Name)]);
        var command = new Command("diagnose", "Name the code that blocks the thread-pool threads of a .NET process (live, or from a trace or dump), with advice")
        {
            pid, name, trace, dump, keepTrace, duration, format,
        };
        command.Writes(keepTrace).Reads(trace, "the --trace read").Reads(dump, "the --dump read");
        command.SetAction(async (result, ct) =>
        {
            var formatText = result.GetValue(format) ?? "text";
            var writer = DiagnosisFormats.Catalogue.Find(formatText);
            var options = new DiagnoseOptions
            {
                Duration = DurationText.Parse(result.GetValue(duration) ?? "5s", "--duration"),
                KeepTrace = result.GetValue(keepTrace),
            }.Validated();
            var target = new DiagnoseTarget(result.GetValue(pid), result.GetValue(name), result.GetValue(trace), result.GetValue(dump));
            var diagnosis = await target.DiagnoseAsync(options, ct);
            writer.Write(diagnosis, Console.Out);
            // The diagnosis is printed whatever happened to the kept trace; the failure is the last line, and the exit code.
            return diagnosis.KeepTraceFailed is { } failed ? throw new TplabException(ExitCodes.OutputFailed, failed) : ExitCodes.Ok;
        });
        return command;
    }
}
