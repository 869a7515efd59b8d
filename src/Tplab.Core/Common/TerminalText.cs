using System.Globalization;
using System.Text;

namespace Tplab.Common;

/// <summary>
/// Text from outside tplab (a targets file's line, a server's reply, a process's output) made safe to print: control
/// characters, C1 codes and the bidirectional overrides are written as escapes (<c>\x1b</c>, <c>\u202e</c>), so a
/// crafted input can neither send escape sequences to the user's terminal nor break an error's one line.
/// </summary>
public static class TerminalText
{
    /// <summary><paramref name="text"/> with every character a terminal would act on escaped; unchanged when there is none.</summary>
    public static string Escape(string? text)
    {
        if (string.IsNullOrEmpty(text))
        {
            return text ?? "";
        }
        if (!text.Any(NeedsEscape))
        {
            return text;
        }
        var b = new StringBuilder(text.Length + 16);
        foreach (var c in text)
        {
            if (!NeedsEscape(c))
            {
                b.Append(c);
            }
            else if (c < 0x100)
            {
                b.Append(c switch { '\n' => "\\n", '\r' => "\\r", '\t' => "\\t", _ => string.Create(CultureInfo.InvariantCulture, $"\\x{(int)c:x2}") });
            }
            else
            {
                b.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:x4}");
            }
        }
        return b.ToString();
    }

    /// <summary>The longest error line printed; a longer one (a plan quoting a megabyte key) is cut, saying so.</summary>
    public const int MaxLine = 1000;

    /// <summary>
    /// A message as the CLI prints it: <see cref="Escape"/>d, so one line whatever it quotes, and cut to
    /// <see cref="MaxLine"/> characters. Every error line goes through here (CommandRunner).
    /// </summary>
    public static string Line(string? message)
    {
        var line = Escape(message);
        return line.Length <= MaxLine ? line : line[..(MaxLine - 20)] + "… (cut; too long)";
    }

    /// <summary>Whether the character would be acted on by a terminal (or reorder what follows it) rather than shown.</summary>
    public static bool NeedsEscape(char c) =>
        char.IsControl(c) // C0, DEL and C1
        || c is >= '\u202a' and <= '\u202e' // bidirectional embeddings and overrides
        || c is >= '\u2066' and <= '\u2069'; // bidirectional isolates
}
