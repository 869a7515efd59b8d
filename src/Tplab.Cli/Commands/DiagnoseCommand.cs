using System.CommandLine;
using Tplab.Common;
using Tplab.Diagnose;
using Tplab.Diagnose.Output;

namespace Tplab.Cli.Commands;

/// <summary>Options of <c>tplab diagnose</c>.</summary>
internal sealed record DiagnoseCommandOptions(int ProcessId, DiagnoseOptions Diagnose, IDiagnosisWriter Writer);

/// <summary><c>tplab diagnose PID</c>: which code blocks the pool threads of a running .NET process.</summary>
internal static class DiagnoseCommand
{
    public static Command Create()
    {
        var pid = new Argument<int>("PID") { Description = "Process id of a running .NET 8+ process of the same user" };
        var duration = new Option<string>("--duration") { Description = "How long to record stacks: 5s, 500ms, 1m (200ms to 2m)", DefaultValueFactory = _ => "5s" };
        var format = new Option<string>("--format") { Description = "text or json", DefaultValueFactory = _ => "text" };
        var command = new Command("diagnose", "Name the code that blocks the thread-pool threads of a running .NET process, with advice")
        {
            pid, duration, format,
        };
        command.SetAction(async (result, ct) =>
        {
            var formatText = result.GetValue(format) ?? "text";
            var options = new DiagnoseCommandOptions(
                result.GetValue(pid),
                new DiagnoseOptions { Duration = DurationText.Parse(result.GetValue(duration) ?? "5s", "--duration") }.Validated(),
                DiagnosisFormats.Find(formatText)
                    ?? throw TplabException.Usage($"--format must be one of {string.Join(", ", DiagnosisFormats.All.Select(w => w.Format))}, got '{formatText}'"));
            return await RunAsync(options, ct);
        });
        return command;
    }

    private static async Task<int> RunAsync(DiagnoseCommandOptions options, CancellationToken ct)
    {
        var diagnosis = await BlockingDiagnoser.DiagnoseAsync(options.ProcessId, options.Diagnose, ct);
        options.Writer.Write(diagnosis, Console.Out);
        return ExitCodes.Ok;
    }
}
