using Tplab.Cli;
using Tplab.Common;

// stdout into a pipe: written so that a reader that goes away (| head) is noticed, which .NET's
// Console stream on Unix would hide; a terminal keeps the console's own writer.
if (Console.IsOutputRedirected && ClosedPipe.StdoutIsPipe())
{
    Console.SetOut(ClosedPipe.OpenStdout());
}
return await CommandRunner.InvokeAsync(TplabCommand.Create(), args);
