using System.CommandLine;
using System.CommandLine.Invocation;
using Tplab.Cli.Binding;
using Tplab.Cli.Commands;

namespace Tplab.Cli;

/// <summary>The tplab command tree: every command, with the invariant number parsers applied to all of its options.</summary>
internal static class TplabCommand
{
    public static RootCommand Create()
    {
        var root = new RootCommand("tplab: reproduce, measure, watch and diagnose .NET thread-pool starvation.")
        {
            ServeCommand.Create(),
            DownstreamCommand.Create(),
            LoadCommand.Create(),
            RunCommand.Create(),
            CompareCommand.Create(),
            TuneCommand.Create(),
            WatchCommand.Create(),
            DiagnoseCommand.Create(),
            PsCommand.Create(),
            ScanCommand.Create(),
            FixCommand.Create(),
        };
        InvariantValues.Apply(root);
        StartAtOnce(root);
        return root;
    }

    // System.CommandLine turns Ctrl+C and SIGTERM into cancellation only once an action has handed it its Task; a
    // signal during the action's first synchronous stretch (tplab run creating its folder, starting the downstream)
    // forced an exit (143) with no word and the folder left marked as running. Every action yields first.
    private static void StartAtOnce(Command command)
    {
        if (command.Action is AsynchronousCommandLineAction action and not YieldFirst)
        {
            command.Action = new YieldFirst(action);
        }
        foreach (var sub in command.Subcommands)
        {
            StartAtOnce(sub);
        }
    }

    private sealed class YieldFirst(AsynchronousCommandLineAction inner) : AsynchronousCommandLineAction
    {
        public override async Task<int> InvokeAsync(ParseResult parseResult, CancellationToken cancellationToken = default)
        {
            await Task.Yield();
            return await inner.InvokeAsync(parseResult, cancellationToken).ConfigureAwait(false);
        }
    }
}
