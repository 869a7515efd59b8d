using System.Globalization;
using Tplab.Blocking;
using Tplab.Scan.Findings;

namespace Tplab.Scan.Output;

/// <summary>The report for a person: a summary line, then each entry point with its findings, the chain file by file, and the fix.</summary>
public sealed class ScanTextFormat : IScanFormat
{
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    public string Name => "text";

    public IReadOnlyList<string> Extensions => [".txt"];

    public string Description => "for a person: grouped by endpoint, each chain with file:line, and the fix";

    public void Write(ScanResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        var r = result;
        var leftOut = r.LeftOutTests.Count > 0 ? $"; {r.LeftOutTests.Count} test project(s) left out ({string.Join(", ", r.LeftOutTests)}), --include-tests reads them" : "";
        writer.WriteLine(string.Create(Inv,
            $"tplab scan: {r.Input.DisplayName}: {r.Analysed.Count} project(s) loaded in {r.LoadTime.TotalSeconds:0.0} s; {r.EntryPoints} entry points, {r.MethodsRead} methods followed in {r.AnalysisTime.TotalSeconds:0.0} s{leftOut}"));
        foreach (var skipped in r.Skipped)
        {
            writer.WriteLine($"skipped: {skipped}");
        }
        var extra = new List<string>();
        if (r.Baselined > 0)
        {
            extra.Add(string.Create(Inv, $"{r.Baselined} more in the baseline"));
        }
        if (r.Suppressed.Count > 0)
        {
            extra.Add(string.Create(Inv, $"{r.Suppressed.Count} ignored inline"));
        }
        writer.WriteLine(string.Create(Inv,
            $"findings: {r.Count(Severity.Error)} error(s), {r.Count(Severity.Warning)} warning(s), {r.Count(Severity.Note)} note(s){(extra.Count > 0 ? " (" + string.Join(", ", extra) + ")" : "")}"));
        if (r.Findings.Count == 0)
        {
            writer.WriteLine(r.EntryPoints == 0
                ? "no entry point found: no controller, endpoint, middleware, hub, hosted service or timer in the code read"
                : "no blocking call is reached from any entry point");
        }
        foreach (var group in r.Findings.GroupBy(f => f.Root.Key))
        {
            var root = group.First().Root;
            writer.WriteLine();
            writer.WriteLine(root.Title);
            foreach (var f in group)
            {
                WriteFinding(f, writer);
            }
        }
    }

    private static void WriteFinding(Finding f, TextWriter writer)
    {
        var label = f.Severity switch { Severity.Error => "ERROR  ", Severity.Warning => "WARNING", _ => "NOTE   " };
        var baselined = f.Baselined ? " [baselined]" : "";
        writer.WriteLine($"  {label} {f.Call} in {f.Chain[^1].Display}{baselined}");
        if (f.Reasons.Count > 0)
        {
            writer.WriteLine($"    why not an error: {string.Join("; ", f.Reasons)}");
        }
        writer.WriteLine("    chain:");
        var width = f.Chain.Max(h => h.Display.Length + (h.Via is null ? 0 : h.Via.Length + 3));
        for (var i = 0; i < f.Chain.Count; i++)
        {
            var hop = f.Chain[i];
            var name = hop.Via is null ? hop.Display : $"{hop.Display} [{hop.Via}]";
            var mark = i == f.Chain.Count - 1 ? $"   <- {f.Call.Name}" : "";
            writer.WriteLine(string.Create(Inv, $"      {name.PadRight(width)}  {hop.File}:{hop.Line}{mark}"));
        }
        writer.WriteLine($"    fix: {f.Advice}");
        if (f.Root.Place == CodePlace.Middleware)
        {
            writer.WriteLine($"    scope: a middleware holds the thread of every request that passes it ({f.Root.GuardText})");
        }
    }
}
