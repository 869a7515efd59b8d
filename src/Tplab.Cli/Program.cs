using Tplab.Cli;

return await CommandRunner.InvokeAsync(TplabCommand.Create(), args);
