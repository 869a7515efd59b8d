using System.Globalization;
using Tplab.Scan.Output;

namespace Tplab.Scan.Fix.Output;

/// <summary>
/// <c>tplab fix --format sarif</c>: scan's SARIF 2.1.0 log (<see cref="SarifFormat"/>, the same results, rules and
/// fingerprints) for the selected findings, each fixed or partly fixed result carrying the change as SARIF
/// <c>fixes</c> (artifactChanges of whole-line replacements, each deleted region by line/column and by
/// charOffset/charLength, with its inserted text), so code-scanning viewers can offer it. The fixes of one run were
/// compiled together, one on top of the other, so each result's fix is the run's whole change: apply one of them, once.
/// Refused results carry no fix; <c>properties.fixStatus</c> and <c>fixReason</c> say what became of each.
/// </summary>
public sealed class FixSarifFormat : IFixFormat
{
    public string Name => "sarif";

    public string Description => "SARIF 2.1.0 with fixes (replacements) for code-scanning viewers";

    public IReadOnlyList<string> Extensions => [".sarif"];

    public bool MachineReadable => true;

    public string? ChangesToMake => "SARIF fixes";

    public void Write(FixResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(writer);
        var scan = result.Scan ?? throw new InvalidOperationException("the fix kept no scan to write SARIF from");
        var outcomes = result.Outcomes.ToDictionary(o => o.Id, StringComparer.Ordinal);
        var selected = result.Targets.SelectMany(t => t.Findings.Select(f => (Finding: f, Outcome: outcomes[t.Id]))).ToList();
        var log = SarifFormat.ToLog(scan with { Findings = [.. selected.Select(s => s.Finding)], Suppressed = [] });
        var run = log.Runs[0];
        var fix = Fix(result);
        // ToLog writes one result per finding, in order.
        var results = run.Results.Select((r, i) =>
        {
            var o = selected[i].Outcome;
            return r with
            {
                Fixes = o.Status != FixStatus.Refused && fix is not null ? [fix] : null,
                Properties = r.Properties with { FixStatus = FixFormats.StatusId(o.Status), FixReason = o.Reason, FixCheck = o.Check },
            };
        }).ToList();
        var driver = run.Tool.Driver with { FullName = "tplab fix: code that blocks thread-pool threads, rewritten async up to each entry point" };
        SarifFormat.WriteLog(log with { Runs = [run with { Tool = new SarifTool(driver), Results = results }] }, writer);
    }

    private static SarifFix? Fix(FixResult result)
    {
        if (result.Files.Count == 0)
        {
            return null;
        }
        var changes = result.Files.Select(f => new SarifArtifactChange(
            SarifFormat.Artifact(f.Relative.Replace('\\', '/')),
            [.. UnifiedDiff.Replacements(f.Before, f.After).Select(r => Replacement(f.Before, r.Offset, r.Length, r.Inserted))])).ToList();
        var c = CultureInfo.InvariantCulture;
        var description = string.Create(c,
            $"tplab fix: {result.Count(FixStatus.Fixed)} finding(s) fixed, {result.Count(FixStatus.PartlyFixed)} partly fixed, in {result.Files.Count} file(s), compiled together: apply this change once, whole");
        return new SarifFix(new SarifMessage(description), changes);
    }

    private static SarifReplacement Replacement(string text, int offset, int length, string inserted)
    {
        var (line, column) = Position(text, offset);
        var (endLine, endColumn) = Position(text, offset + length);
        return new SarifReplacement(
            new SarifRegion(line, column) { EndLine = endLine, EndColumn = endColumn, CharOffset = offset, CharLength = length },
            inserted.Length == 0 ? null : new SarifArtifactContent(inserted));
    }

    // SARIF's line and column (1-based, UTF-16 columns) of an offset; a line ends at CR, LF or CR LF.
    private static (int Line, int Column) Position(string text, int offset)
    {
        var line = 1;
        var start = 0;
        for (var i = 0; i < offset; i++)
        {
            if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.Length || text[i + 1] != '\n')))
            {
                line++;
                start = i + 1;
            }
        }
        return (line, offset - start + 1);
    }
}
