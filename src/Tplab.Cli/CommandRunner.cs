using System.CommandLine;
using Tplab.Common;

namespace Tplab.Cli;

/// <summary>
/// Runs the parsed command: a usage error or a <see cref="TplabException"/> becomes one line on stderr
/// and its documented exit code (docs/exit-codes.md), never a stack trace; Ctrl+C cancels the token.
/// </summary>
internal static class CommandRunner
{
    public static async Task<int> InvokeAsync(RootCommand root, string[] args)
    {
        // No response files: '@file' is a request body for load (-d @body.json, as curl and vegeta write it).
        var parsed = root.Parse(args, new ParserConfiguration { ResponseFileTokenReplacer = null });
        if (parsed.Errors.Count > 0)
        {
            // One line: the parser lists allowed values on lines of their own ("Must be one of:\n\t'warning'...").
            var message = string.Join(' ', parsed.Errors[0].Message.Split(['\n', '\r', '\t'], StringSplitOptions.RemoveEmptyEntries).Select(p => p.Trim()));
            await Console.Error.WriteLineAsync($"tplab: {message} (see tplab --help)");
            return ExitCodes.Usage;
        }
        // After Ctrl+C a command may still need several seconds to finish cleanly (load waits briefly for in-flight
        // requests; run writes its results and stops its targets); System.CommandLine's default of 2 s would cut that short.
        var config = new InvocationConfiguration { EnableDefaultExceptionHandler = false, ProcessTerminationTimeout = TimeSpan.FromSeconds(30) };
        try
        {
            return await parsed.InvokeAsync(config);
        }
        catch (TplabException e)
        {
            await Console.Error.WriteLineAsync($"tplab: {e.Message}");
            return e.ExitCode;
        }
        catch (OperationCanceledException)
        {
            await Console.Error.WriteLineAsync("tplab: interrupted");
            return ExitCodes.Interrupted;
        }
        catch (Exception e) when (Environment.GetEnvironmentVariable("TPLAB_DEBUG") != "1")
        {
            // A bug of ours, not the user's: still one line; TPLAB_DEBUG=1 shows the stack trace.
            await Console.Error.WriteLineAsync($"tplab: internal error: {e.GetType().Name}: {e.Message.ReplaceLineEndings(" ")} (TPLAB_DEBUG=1 shows details)");
            return ExitCodes.Failed;
        }
    }
}
