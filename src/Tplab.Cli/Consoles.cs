using Spectre.Console;

namespace Tplab.Cli;

/// <summary>The console a command draws its tables on: the terminal as it is, or plain text for a file or a CI log.</summary>
internal static class Consoles
{
    /// <summary>Whether stdout is a terminal that can redraw in place.</summary>
    public static bool Interactive => !Console.IsOutputRedirected && AnsiConsole.Profile.Capabilities.Interactive;

    /// <summary>The terminal's console, or a plain one: no colour codes, and wide enough that tables keep one line per row.</summary>
    public static IAnsiConsole ForOutput()
    {
        if (Interactive)
        {
            return AnsiConsole.Console;
        }
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.No,
            Out = new AnsiConsoleOutput(Console.Out),
        });
        console.Profile.Width = 200;
        return console;
    }
}
