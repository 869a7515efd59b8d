using System.Globalization;
using Tplab.Blocking;
using Tplab.Scan.Findings;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Output;

/// <summary>The text report's body: sites worst first, or entry points with their sites; lines kept to a screen's width.</summary>
internal static class ScanTextSites
{
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
            ScanTextWidth.Wrap("", group.First().Reach.Root.Title, writer);
            foreach (var (f, reach) in group.OrderByDescending(x => x.Reach.Severity).ThenBy(x => x.Reach.Depth))
            {
                // The fixed parts whole; the method and the file share what is left, each elided in its middle.
                var head = $"  {Label(reach.Severity)} {f.Call.Name} in ";
                var tail = string.Create(Inv, $":{f.Site.Line}  {f.Id}{(f.Baselined ? " [baselined]" : "")}");
                var (method, file) = Share(ScanTextWidth.Width - head.Length - tail.Length - 2, f.Site.Display, f.Site.File);
                writer.WriteLine($"{head}{method}  {file}{tail}");
            }
        }
        More(byRoot.Count - shown.Count, "entry point", writer);
    }

    private static void WriteSite(Finding f, TextWriter writer)
    {
        var baselined = f.Baselined ? " [baselined]" : "";
        var title = $"{Label(f.Severity)} {f.Call.Name} in ";
        var id = $"  {f.Id}{baselined}";
        writer.WriteLine(title + ScanTextWidth.Elide(f.Site.Display, ScanTextWidth.Width - title.Length - id.Length) + id);
        var on = f.Call.On is null ? "" : " on " + f.Call.On;
        ScanTextWidth.Wrap("  at ", string.Create(Inv, $"{f.Site.File}:{f.Site.Line}:{f.Site.Column} ({f.Call.KindLabel}{on})"), writer);
        var counts = new[] { Severity.Error, Severity.Warning, Severity.Note }
            .Select(s => (Severity: s, Count: f.Roots.Count(x => x.Severity == s))).Where(x => x.Count > 0)
            .Select(x => string.Create(Inv, $"{x.Count} {ScanJsonFormat.SeverityId(x.Severity)}{(x.Count > 1 ? "s" : "")}"));
        var others = f.Roots.Skip(1).Select(x => x.Root.Key);
        writer.WriteLine(ScanTextWidth.Limit(string.Create(Inv, $"  reached from {f.Roots.Count} entry point(s) ({string.Join(", ", counts)}); also: "), others, 4, noneText: "  reached from this entry point only"));
        if (f.ByReach)
        {
            ScanTextWidth.Wrap("  an error by its reach: ", string.Create(Inv,
                $"{f.Roots.Count(r => PlaceWords.IsRequestPath(r.Root.Place))} request entry points reach it, though from each it may not run: {string.Join("; ", f.Reasons)}"), writer);
        }
        else if (f.Reasons.Count > 0)
        {
            ScanTextWidth.Wrap("  why not an error: ", string.Join("; ", f.Reasons), writer);
        }
        ScanTextWidth.Wrap("  chain from ", f.Root.Title + ":", writer);
        // One line per hop (name, file:line); how it was reached, when not by a plain call, on a line of its own.
        var width = Math.Min(48, f.Chain.Max(h => h.Display.Length));
        for (var i = 0; i < f.Chain.Count; i++)
        {
            var hop = f.Chain[i];
            if (hop.Via is not null)
            {
                ScanTextWidth.Wrap("      ", $"[{hop.Via}]", writer);
            }
            var mark = i == f.Chain.Count - 1 ? $"   <- {f.Call.Name}" : "";
            var at = string.Create(Inv, $":{hop.Line}{mark}");
            var file = ScanTextWidth.Elide(hop.File, ScanTextWidth.Width - 4 - width - 2 - at.Length);
            writer.WriteLine($"    {ScanTextWidth.Elide(hop.Display, width).PadRight(width)}  {file}{at}");
        }
        ScanTextWidth.Wrap("  fix: ", f.Advice, writer);
        if (f.Root.Place == CodePlace.Middleware)
        {
            ScanTextWidth.Wrap("  scope: ", $"a middleware holds the thread of every request that passes it ({f.Root.GuardText})", writer);
        }
    }

    private static string Label(Severity severity) => severity switch { Severity.Error => "ERROR  ", Severity.Warning => "WARNING", _ => "NOTE   " };

    // Two names in the room of one line: each whole when both fit, else the longer one elided first.
    private static (string First, string Second) Share(int room, string first, string second)
    {
        if (first.Length + second.Length <= room)
        {
            return (first, second);
        }
        var half = room / 2;
        return first.Length <= half ? (first, ScanTextWidth.Elide(second, room - first.Length))
            : second.Length <= half ? (ScanTextWidth.Elide(first, room - second.Length), second)
            : (ScanTextWidth.Elide(first, half), ScanTextWidth.Elide(second, room - half));
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
