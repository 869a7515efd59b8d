using System.CommandLine;
using Tplab.Cli;
using Tplab.Cli.Commands;

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
};
return await CommandRunner.InvokeAsync(root, args);
