using System.Globalization;
using System.Text;
using Tplab.Blocking;
using Tplab.Scan.Findings;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Output;

/// <summary>The text report's body: sites worst first, or entry points with their sites; lines kept to a screen's width.</summary>
internal static class ScanTextSites
{
    /// <summary>The width long sentences wrap at and lists stop at.</summary>
    public const int Width = 120;

    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    public static void WriteBySite(ScanResult r, int? top, TextWriter writer)
    {
        var shown = top is { } n ? r.Findings.Take(n).ToList() : r.Findings;
        foreach (var f in shown)
        {
            writer.WriteLine();
            WriteSite(f, writer);
        }
        More(r.Findings.Count - shown.Count, "site", writer);
    }

    public static void WriteByEndpoint(ScanResult r, int? top, TextWriter writer)
    {
        var byRoot = r.Findings.SelectMany(f => f.Roots.Select(x => (Finding: f, Reach: x))).GroupBy(x => x.Reach.Root, (IEqualityComparer<EntryPoint>)ReferenceEqualityComparer.Instance)
            .OrderByDescending(g => g.Max(x => x.Reach.Severity)).ThenByDescending(g => g.Count()).ThenBy(g => g.First().Reach.Root.Key, StringComparer.Ordinal).ToList();
        var shown = top is { } n ? byRoot.Take(n).ToList() : byRoot;
        foreach (var group in shown)
        {
            writer.WriteLine();
            writer.WriteLine(group.First().Reach.Root.Title);
            foreach (var (f, reach) in group.OrderByDescending(x => x.Reach.Severity).ThenBy(x => x.Reach.Depth))
            {
                writer.WriteLine(string.Create(Inv, $"  {Label(reach.Severity)} {f.Call.Name} in {f.Site.Display}  {f.Site.File}:{f.Site.Line}  {f.Id}{(f.Baselined ? " [baselined]" : "")}"));
            }
        }
        More(byRoot.Count - shown.Count, "entry point", writer);
    }

    private static void WriteSite(Finding f, TextWriter writer)
    {
        var baselined = f.Baselined ? " [baselined]" : "";
        writer.WriteLine(string.Create(Inv, $"{Label(f.Severity)} {f.Call.Name} in {f.Site.Display}  {f.Id}{baselined}"));
        var on = f.Call.On is null ? "" : " on " + f.Call.On;
        writer.WriteLine(string.Create(Inv, $"  at {f.Site.File}:{f.Site.Line}:{f.Site.Column} ({f.Call.KindLabel}{on})"));
        var counts = new[] { Severity.Error, Severity.Warning, Severity.Note }
            .Select(s => (Severity: s, Count: f.Roots.Count(x => x.Severity == s))).Where(x => x.Count > 0)
            .Select(x => string.Create(Inv, $"{x.Count} {ScanJsonFormat.SeverityId(x.Severity)}{(x.Count > 1 ? "s" : "")}"));
        var others = f.Roots.Skip(1).Select(x => x.Root.Key);
        writer.WriteLine(Limit(string.Create(Inv, $"  reached from {f.Roots.Count} entry point(s) ({string.Join(", ", counts)}); also: "), others, 4, noneText: "  reached from this entry point only"));
        if (f.Reasons.Count > 0)
        {
            Wrap("  why not an error: ", string.Join("; ", f.Reasons), writer);
        }
        writer.WriteLine($"  chain from {f.Root.Title}:");
        // One line per hop (name, file:line); how it was reached, when not by a plain call, on a line of its own.
        var width = Math.Min(48, f.Chain.Max(h => h.Display.Length));
        for (var i = 0; i < f.Chain.Count; i++)
        {
            var hop = f.Chain[i];
            if (hop.Via is not null)
            {
                writer.WriteLine($"      [{hop.Via}]");
            }
            var mark = i == f.Chain.Count - 1 ? $"   <- {f.Call.Name}" : "";
            writer.WriteLine(string.Create(Inv, $"    {hop.Display.PadRight(width)}  {hop.File}:{hop.Line}{mark}"));
        }
        Wrap("  fix: ", f.Advice, writer);
        if (f.Root.Place == CodePlace.Middleware)
        {
            writer.WriteLine($"  scope: a middleware holds the thread of every request that passes it ({f.Root.GuardText})");
        }
    }

    private static string Label(Severity severity) => severity switch { Severity.Error => "ERROR  ", Severity.Warning => "WARNING", _ => "NOTE   " };

    /// <summary><paramref name="head"/> and as many items as fit <see cref="Width"/> (at most <paramref name="max"/>), then "and N more".</summary>
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
            if (written == max || (written > 0 && line.Length + next.Length > Width))
            {
                break;
            }
            line.Append(next);
            written++;
        }
        if (written < all.Count)
        {
            line.Append(string.Create(Inv, $"{(written > 0 ? "," : "")} and {all.Count - written} more"));
        }
        return line.ToString();
    }

    /// <summary>A sentence after <paramref name="head"/>, wrapped at word boundaries to <see cref="Width"/>, continued under its start.</summary>
    public static void Wrap(string head, string text, TextWriter writer)
    {
        var indent = new string(' ', head.Length);
        var line = new StringBuilder(head);
        var empty = true;
        foreach (var word in text.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
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

    private static void More(int count, string what, TextWriter writer)
    {
        if (count > 0)
        {
            writer.WriteLine();
            writer.WriteLine(string.Create(Inv, $"{count} more {what}(s) not shown (--top); the JSON and SARIF reports hold every one"));
        }
    }
}
