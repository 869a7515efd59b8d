using System.CommandLine;

namespace Tplab.Cli.Commands;

/// <summary><c>tplab run</c>: the seed experiments. Until the lab lands, says what exists and what is coming.</summary>
internal static class RunCommand
{
    public static Command Create()
    {
        var command = new Command("run", "Reproduce the seed experiments (coming: the lab is being built)");
        command.SetAction(_ =>
        {
            Console.WriteLine("tplab run: the lab (the seed experiments with tables and a report) is not built yet.");
            Console.WriteLine("What exists now: ./tplab serve --port 0   (the target with every seed variant; see docs/target.md)");
            return 0;
        });
        return command;
    }
}
