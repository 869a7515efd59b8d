using Spectre.Console;

namespace Tplab.Reports.Terminal;

/// <summary>The console a command draws on: the terminal's own, or a plain one when stdout goes to a file, a pipe or a CI log.</summary>
public static class Consoles
{
    /// <summary>Width of the plain console: wide enough that tables keep one line per row in a log.</summary>
    public const int PlainWidth = 200;

    /// <summary>
    /// The console for stdout, and whether it is an interactive terminal. Redirected, it writes no colour and no cursor
    /// codes: Spectre decides colour from $TERM, which a pipe inherits from the terminal it was typed in.
    /// </summary>
    public static (IAnsiConsole Console, bool Interactive) ForStdout()
    {
        var interactive = !Console.IsOutputRedirected && AnsiConsole.Profile.Capabilities.Interactive;
        return (interactive ? AnsiConsole.Console : Plain(Console.Out), interactive);
    }

    /// <summary>A console that writes plain text to <paramref name="writer"/>: no colour, no cursor movement, <see cref="PlainWidth"/> wide.</summary>
    public static IAnsiConsole Plain(TextWriter writer)
    {
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.No,
            Out = new AnsiConsoleOutput(writer),
        });
        console.Profile.Width = PlainWidth;
        return console;
    }
}
