using System.Globalization;

namespace Tplab.Scan.Fix.Output;

/// <summary>
/// <c>tplab fix --format text</c> (the default with <c>--apply</c>, and the summary beside a patch or SARIF): per finding
/// fixed, partly fixed or refused, the changes and lines, the reason with its id, boundaries and notes; then the totals.
/// </summary>
public sealed class FixTextFormat : IFixFormat
{
    public string Name => "text";

    public string Description => "per finding: fixed, partly fixed or refused, with the lines changed and the reasons";

    public IReadOnlyList<string> Extensions => [".txt"];

    public void Write(FixResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        foreach (var o in result.Outcomes)
        {
            writer.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{FixFormats.StatusId(o.Status)}  {o.Id}  {o.BlockingCall} in {o.UserMethod} ({o.File}:{o.Line})"));
            writer.WriteLine($"    reached from {string.Join(", ", o.Roots)}");
            foreach (var c in o.Changes)
            {
                writer.WriteLine($"    {c}");
            }
            foreach (var t in o.Touched)
            {
                writer.WriteLine($"    changed {t.File}: {Lines(t.Lines)}");
            }
            if (o.Reason is not null)
            {
                writer.WriteLine($"    {(o.Status == FixStatus.Refused ? "why" : "left")}: {o.Reason}");
            }
            if (o.Check is not null && o.Reason?.Contains(o.Check, StringComparison.Ordinal) != true)
            {
                writer.WriteLine($"    check: {o.Check}");
            }
            foreach (var b in o.Boundaries)
            {
                writer.WriteLine($"    boundary: {b}");
            }
            foreach (var n in o.Notes)
            {
                writer.WriteLine($"    note: {n}");
            }
        }
        writer.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"tplab fix: {result.Count(FixStatus.Fixed)} fixed, {result.Count(FixStatus.PartlyFixed)} partly fixed, {result.Count(FixStatus.Refused)} refused; {result.Files.Count} file(s) {(result.Applied ? "written" : "in the patch")}"));
    }

    // 3, 5-7, 12
    private static string Lines(IReadOnlyList<int> lines)
    {
        var parts = new List<string>();
        for (var i = 0; i < lines.Count; i++)
        {
            var start = lines[i];
            while (i + 1 < lines.Count && lines[i + 1] == lines[i] + 1)
            {
                i++;
            }
            parts.Add(start == lines[i] ? start.ToString(CultureInfo.InvariantCulture) : string.Create(CultureInfo.InvariantCulture, $"{start}-{lines[i]}"));
        }
        return parts.Count == 0 ? "(none)" : "lines " + string.Join(", ", parts);
    }
}
