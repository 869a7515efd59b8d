using System.CommandLine;
using Tplab.Common;
using Tplab.Reports.Terminal;
using Tplab.Watch.Survey;

namespace Tplab.Cli.Commands;

/// <summary><c>tplab ps</c>: the .NET processes this user can attach to, with their pool at a glance.</summary>
internal static class PsCommand
{
    public static Command Create()
    {
        var sample = new Option<string>("--sample") { Description = "How long to watch each process for the verdict (0.25s to 60s)", DefaultValueFactory = _ => "1.5s" };
        var command = new Command("ps", "List the .NET processes tplab can attach to: pid, name, runtime, pool threads, queue, verdict") { sample };
        command.SetAction(async (result, ct) =>
        {
            var rows = await ProcessSurvey.SurveyAsync(DurationText.Parse(result.GetValue(sample) ?? "1.5s", "--sample"), ct);
            Consoles.ForStdout().Console.Write(SurveyTable.Render(rows));
            return ExitCodes.Ok;
        });
        return command;
    }
}
