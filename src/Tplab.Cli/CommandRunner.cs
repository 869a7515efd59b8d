using System.CommandLine;
using Tplab.Cli.Binding;
using Tplab.Common;

namespace Tplab.Cli;

/// <summary>
/// Runs the parsed command: a usage error or a <see cref="TplabException"/> becomes one line on stderr
/// and its documented exit code (docs/exit-codes.md), never a stack trace; Ctrl+C and SIGTERM cancel the token.
/// Every line is escaped for the terminal (<see cref="TerminalText"/>): messages quote files and servers.
/// </summary>
internal static class CommandRunner
{
    public static async Task<int> InvokeAsync(RootCommand root, string[] args)
    {
        // No response files: '@file' is a request body for load (-d @body.json, as curl and vegeta write it).
        var parsed = root.Parse(args, new ParserConfiguration { ResponseFileTokenReplacer = null });
        if (parsed.Errors.Count > 0)
        {
            return await FailAsync(ExitCodes.Usage, UsageMessage.For(parsed));
        }
        // After Ctrl+C a command may still need several seconds to finish cleanly (load waits briefly for in-flight
        // requests; run writes its results and stops its targets); System.CommandLine's default of 2 s would cut that short.
        var config = new InvocationConfiguration { EnableDefaultExceptionHandler = false, ProcessTerminationTimeout = TimeSpan.FromSeconds(30) };
        SignalReceived.Observe();
        try
        {
            // Every command's outputs, before its work; not for --help or --version, which do no work (and may come
            // without the command's required arguments).
            if (ReferenceEquals(parsed.Action, parsed.CommandResult.Command.Action))
            {
                OutputRules.Check(parsed);
            }
            return await parsed.InvokeAsync(config);
        }
        catch (Exception e) when (ClosedPipe.Is(e))
        {
            // The reader went away (tplab watch … | head -n 3): what it wanted was written; nothing to say, and no one to say it to.
            return ExitCodes.OutputClosed;
        }
        catch (OperationCanceledException)
        {
            return await FailAsync(ExitCodes.Interrupted, "interrupted");
        }
        catch (Exception e) when (e is not TplabException { ExitCode: ExitCodes.Usage } && SignalReceived.Seen)
        {
            // A part stopped by the same signal failed first: the signal is the cause (issue 28).
            return await FailAsync(ExitCodes.Interrupted, "interrupted");
        }
        catch (TplabException e)
        {
            return await FailAsync(e.ExitCode, e.Message);
        }
        catch (Exception e) when (Environment.GetEnvironmentVariable("TPLAB_DEBUG") != "1")
        {
            // A bug of ours, not the user's: still one line; TPLAB_DEBUG=1 shows the exception and its stack trace.
            return await FailAsync(ExitCodes.Failed, $"internal error: {e.Message} (a bug in tplab; TPLAB_DEBUG=1 shows where)");
        }
    }

    private static async Task<int> FailAsync(int code, string message)
    {
        try
        {
            await Console.Error.WriteLineAsync("tplab: " + TerminalText.Line(message));
        }
        catch (IOException)
        {
            // stderr closed too: the exit code is all that is left to say it.
        }
        return code;
    }
}
