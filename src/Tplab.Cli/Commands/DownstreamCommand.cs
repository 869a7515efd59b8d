using System.CommandLine;
using Tplab.Launch;

namespace Tplab.Cli.Commands;

/// <summary><c>tplab downstream</c>: the slow second service of seed 001, in its own process.</summary>
internal static class DownstreamCommand
{
    public static Command Create()
    {
        var port = new Option<int>("--port") { Description = "Port on 127.0.0.1; 0 picks a free one", DefaultValueFactory = _ => 5001 };
        var command = new Command("downstream", "Run the downstream service: answers any GET after an async wait of ?ms= (default 1000)") { port };
        command.SetAction(async (result, ct) =>
        {
            await using var downstream = await TargetProcess.StartDownstreamAsync(result.GetValue(port), ct);
            Console.WriteLine($"tplab downstream: listening on {downstream.BaseAddress} (pid {downstream.ProcessId})");
            await Task.WhenAny(downstream.Process.Exited, Task.Delay(Timeout.Infinite, ct));
            return 0;
        });
        return command;
    }
}
