using System.Globalization;
using System.Text;

namespace Tplab.Scan.Fix.Output;

/// <summary>
/// A unified diff that <c>git apply</c> and <c>patch -p1</c> take: Myers' shortest edit script over lines, each line
/// with its own ending (CRLF stays CRLF), three lines of context, and git's marker for a last line without one.
/// </summary>
public static class UnifiedDiff
{
    private const int Context = 3;

    /// <summary>The diff of one file, <c>a/</c> and <c>b/</c> before <paramref name="path"/> ('/' separators); empty when the texts are equal.</summary>
    public static string Of(string path, string before, string after)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (string.Equals(before, after, StringComparison.Ordinal))
        {
            return "";
        }
        var a = Lines(before);
        var b = Lines(after);
        var script = Edits(a, b);
        var sb = new StringBuilder();
        sb.Append("diff --git a/").Append(path).Append(" b/").Append(path).Append('\n');
        sb.Append("--- a/").Append(path).Append('\n');
        sb.Append("+++ b/").Append(path).Append('\n');
        foreach (var hunk in Hunks(script))
        {
            var (ai, bi) = (hunk[0].A, hunk[0].B);
            var aCount = hunk.Count(e => e.Kind != '+');
            var bCount = hunk.Count(e => e.Kind != '-');
            sb.Append(CultureInfo.InvariantCulture, $"@@ -{Range(ai, aCount)} +{Range(bi, bCount)} @@\n");
            foreach (var e in hunk)
            {
                var line = e.Kind == '+' ? b[e.B] : a[e.A];
                sb.Append(e.Kind).Append(line);
                if (!line.EndsWith('\n'))
                {
                    sb.Append("\n\\ No newline at end of file\n");
                }
            }
        }
        return sb.ToString();
    }

    /// <summary>The 1-based lines of <paramref name="after"/> that differ from <paramref name="before"/>.</summary>
    public static IReadOnlyList<int> ChangedLines(string before, string after)
    {
        var script = Edits(Lines(before), Lines(after));
        return [.. script.Where(e => e.Kind == '+').Select(e => e.B + 1)];
    }

    /// <summary>
    /// The change as replacements of whole lines of <paramref name="before"/>, in order: where (UTF-16 offset), how much
    /// is deleted, and the text put there. Applied from the last to the first, they turn before into after.
    /// </summary>
    public static IReadOnlyList<(int Offset, int Length, string Inserted)> Replacements(string before, string after)
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        var a = Lines(before);
        var b = Lines(after);
        var starts = new int[a.Count + 1];
        for (var i = 0; i < a.Count; i++)
        {
            starts[i + 1] = starts[i] + a[i].Length;
        }
        var script = Edits(a, b);
        var replacements = new List<(int, int, string)>();
        for (var i = 0; i < script.Count;)
        {
            if (script[i].Kind == ' ')
            {
                i++;
                continue;
            }
            // A run of deletions and insertions between unchanged lines: its deletions are consecutive lines of before.
            var from = script[i].A;
            var deleted = 0;
            var inserted = new StringBuilder();
            for (; i < script.Count && script[i].Kind != ' '; i++)
            {
                if (script[i].Kind == '-')
                {
                    deleted++;
                }
                else
                {
                    inserted.Append(b[script[i].B]);
                }
            }
            replacements.Add((starts[from], starts[from + deleted] - starts[from], inserted.ToString()));
        }
        return replacements;
    }

    private static string Range(int start, int count) => count switch
    {
        0 => string.Create(CultureInfo.InvariantCulture, $"{start},0"),
        1 => string.Create(CultureInfo.InvariantCulture, $"{start + 1}"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{start + 1},{count}"),
    };

    private readonly record struct Edit(char Kind, int A, int B);

    private static List<string> Lines(string text)
    {
        var lines = new List<string>();
        var start = 0;
        for (var i = 0; i < text.Length; i++)
        {
            if (text[i] == '\n')
            {
                lines.Add(text[start..(i + 1)]);
                start = i + 1;
            }
        }
        if (start < text.Length)
        {
            lines.Add(text[start..]);
        }
        return lines;
    }

    // Groups the script into hunks: changes with up to three lines of context, hunks closer than six lines merged.
    private static IEnumerable<List<Edit>> Hunks(List<Edit> script)
    {
        var changed = script.Select((e, i) => (e, i)).Where(x => x.e.Kind != ' ').Select(x => x.i).ToList();
        var k = 0;
        while (k < changed.Count)
        {
            var first = changed[k];
            var last = first;
            while (k + 1 < changed.Count && changed[k + 1] - last <= 2 * Context)
            {
                last = changed[++k];
            }
            k++;
            var from = Math.Max(0, first - Context);
            var to = Math.Min(script.Count - 1, last + Context);
            yield return script.GetRange(from, to - from + 1);
        }
    }

    // Myers' O((N+M)D) greedy algorithm; each round's frontier is saved, and the path is read back from them.
    private static List<Edit> Edits(List<string> a, List<string> b)
    {
        int n = a.Count, m = b.Count, max = n + m;
        var v = new int[2 * max + 2];
        var trace = new List<int[]>();
        for (var d = 0; d <= max; d++)
        {
            trace.Add((int[])v.Clone());
            var done = false;
            for (var k = -d; k <= d; k += 2)
            {
                var x = k == -d || (k != d && v[max + k - 1] < v[max + k + 1]) ? v[max + k + 1] : v[max + k - 1] + 1;
                var y = x - k;
                while (x < n && y < m && string.Equals(a[x], b[y], StringComparison.Ordinal))
                {
                    x++;
                    y++;
                }
                v[max + k] = x;
                if (x >= n && y >= m)
                {
                    done = true;
                    break;
                }
            }
            if (done)
            {
                break;
            }
        }
        var edits = new List<Edit>();
        int cx = n, cy = m;
        for (var d = trace.Count - 1; d >= 0; d--)
        {
            var frontier = trace[d];
            var k = cx - cy;
            var prevK = k == -d || (k != d && frontier[max + k - 1] < frontier[max + k + 1]) ? k + 1 : k - 1;
            var prevX = frontier[max + prevK];
            var prevY = prevX - prevK;
            while (cx > prevX && cy > prevY)
            {
                edits.Add(new Edit(' ', --cx, --cy));
            }
            if (d > 0)
            {
                edits.Add(cx == prevX ? new Edit('+', cx, prevY) : new Edit('-', prevX, cy));
            }
            (cx, cy) = (prevX, prevY);
        }
        edits.Reverse();
        return edits;
    }
}
