using System.CommandLine;
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
        };
        InvariantValues.Apply(root);
        return root;
    }
}
