using System.CommandLine;
using System.Globalization;
using Tplab.Common;
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
            Console.Out.Write(Table(rows));
            return ExitCodes.Ok;
        });
        return command;
    }

    private static string Table(IReadOnlyList<SurveyedProcess> rows)
    {
        static string N(long? v) => v?.ToString(CultureInfo.InvariantCulture) ?? "-";
        var lines = new List<string[]> { new[] { "PID", "NAME", "RUNTIME", "THREADS", "QUEUE", "VERDICT" } };
        lines.AddRange(rows.Select(r => new[]
        {
            r.ProcessId.ToString(CultureInfo.InvariantCulture), r.Name, r.RuntimeVersion?.ToString() ?? "?", N(r.PoolThreads), N(r.QueueLength),
            r.Error is null ? r.Verdict : $"{r.Verdict} ({r.Error})",
        }));
        var widths = Enumerable.Range(0, 5).Select(i => lines.Max(l => l[i].Length)).ToArray();
        var text = string.Concat(lines.Select(l => string.Join("  ", l.Take(5).Select((c, i) => i is 0 or 3 or 4 ? c.PadLeft(widths[i]) : c.PadRight(widths[i]))) + "  " + l[5] + "\n"));
        return rows.Count == 0 ? text + "(no .NET process this user can attach to)\n" : text;
    }
}
