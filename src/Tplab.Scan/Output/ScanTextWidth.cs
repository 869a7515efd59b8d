using System.Globalization;
using System.Text;

namespace Tplab.Scan.Output;

/// <summary>
/// The text report's one rule for width: no line longer than <see cref="Width"/> columns. Sentences wrap at words,
/// continued under their start; lists stop with "and N more"; a name or path too long for its place keeps its start and
/// its end with "..." in the middle (the end names the method or file, the start the namespace or folder).
/// </summary>
internal static class ScanTextWidth
{
    /// <summary>The widest line the text report writes.</summary>
    public const int Width = 120;

    /// <summary>What stands for the elided middle of a name.</summary>
    public const string Ellipsis = "...";

    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    /// <summary><paramref name="text"/> as it is when it has at most <paramref name="max"/> characters; else its start and end around <see cref="Ellipsis"/>, <paramref name="max"/> in all.</summary>
    public static string Elide(string text, int max)
    {
        ArgumentNullException.ThrowIfNull(text);
        max = Math.Max(max, 2 * Ellipsis.Length + 1);
        if (text.Length <= max)
        {
            return text;
        }
        var keep = max - Ellipsis.Length;
        var head = keep / 3;
        return string.Concat(text.AsSpan(0, head), Ellipsis, text.AsSpan(text.Length - (keep - head)));
    }

    /// <summary><paramref name="head"/> and as many items as fit <see cref="Width"/> (at most <paramref name="max"/>), then "and N more"; an item too long alone is elided.</summary>
    public static string Limit(string head, IEnumerable<string> items, int max, string? noneText = null)
    {
        var all = items.ToList();
        if (all.Count == 0 && noneText is not null)
        {
            return noneText;
        }
        var line = new StringBuilder(head);
        var written = 0;
        foreach (var item in all)
        {
            var next = (written > 0 ? ", " : "") + item;
            if (written == max || (written > 0 && line.Length + next.Length + MoreRoom(all.Count - written - 1) > Width))
            {
                break;
            }
            line.Append(written == 0 ? Elide(next, Width - line.Length - MoreRoom(all.Count - 1)) : next);
            written++;
        }
        if (written < all.Count)
        {
            line.Append(string.Create(Inv, $"{(written > 0 ? "," : "")} and {all.Count - written} more"));
        }
        return line.ToString();
    }

    /// <summary>A sentence after <paramref name="head"/>, as written when it fits; else wrapped at word boundaries to <see cref="Width"/>, continued under its start, a word too long for a line elided.</summary>
    public static void Wrap(string head, string text, TextWriter writer)
    {
        if (head.Length + text.Length <= Width)
        {
            // As written (two spaces between a route and its place stay two).
            writer.WriteLine(head + text);
            return;
        }
        var indent = new string(' ', head.Length);
        var room = Math.Max(Width - head.Length, 20);
        var line = new StringBuilder(head);
        var empty = true;
        foreach (var whole in text.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            var word = Elide(whole, room);
            if (!empty && line.Length + 1 + word.Length > Width)
            {
                writer.WriteLine(line.ToString());
                line.Clear().Append(indent);
                empty = true;
            }
            line.Append(empty ? "" : " ").Append(word);
            empty = false;
        }
        writer.WriteLine(line.ToString());
    }

    // The room ", and N more" takes when N items are left out.
    private static int MoreRoom(int left) => left > 0 ? string.Create(Inv, $", and {left} more").Length : 0;
}
