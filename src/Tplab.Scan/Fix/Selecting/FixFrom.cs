using Tplab.Common;
using Tplab.Common.Json;
using Tplab.Scan.Findings;
using Tplab.Scan.Output;

namespace Tplab.Scan.Fix.Selecting;

/// <summary>
/// <c>tplab fix --from</c>: the finding ids of a scan report, read through the very records scan writes it with
/// (<see cref="ScanDocument"/> for scan.json, <see cref="SarifLog"/> for scan.sarif): one definition per format. A
/// report of another solution, of another schema version, of another tool, or no report at all is a usage error in
/// one line, before any project loads.
/// </summary>
internal static class FixFrom
{
    public static FixReportIds ReadIds(string path, string scanned, string rootFolder)
    {
        var text = InputFile.ReadText(path, "--from", InputLimit.Report);
        var what = $"{path} is not a tplab scan report";
        // A SARIF log has runs and no schema number; scan's JSON has its schema number first.
        var json = TplabJson.Read(text, ScanJsonFormat.Json.ScanDocument, what);
        if (json.Schema == 0 && json.Tool is null)
        {
            return SarifIds(TplabJson.Read(text, SarifFormat.Json.SarifLog, what), path, scanned, rootFolder);
        }
        if (json.Schema is not (ScanJsonFormat.SchemaVersion or ScanJsonFormat.SchemaWithoutProject))
        {
            throw TplabException.Usage($"{path} is a scan report of schema {json.Schema}; this tplab reads schemas {ScanJsonFormat.SchemaWithoutProject} and {ScanJsonFormat.SchemaVersion} (scan again with this tplab)");
        }
        if (json.Tool is not { Name: "tplab" })
        {
            throw TplabException.Usage($"{what} (tool: {json.Tool?.Name ?? "none"})");
        }
        if (json.Scanned is { } s && !string.Equals(s, scanned, StringComparison.Ordinal))
        {
            throw TplabException.Usage($"{path} is a scan of {s}, not of {scanned}");
        }
        return new FixReportIds(Ids(json.Findings.Select(f => f.Id), path), WithoutProject: json.Schema == ScanJsonFormat.SchemaWithoutProject);
    }

    private static FixReportIds SarifIds(SarifLog log, string path, string scanned, string rootFolder)
    {
        if (log.Runs.Count == 0)
        {
            throw TplabException.Usage($"{path} is not a tplab scan report (no findings)");
        }
        var ids = new List<string?>();
        // A log written before ids named the project has the old fingerprint only: its ids are matched as they meant.
        var withoutProject = log.Runs.SelectMany(r => r.Results).Any(r => r.PartialFingerprints?.ContainsKey(SarifFormat.FingerprintKeyWithoutProject) == true)
            && !log.Runs.SelectMany(r => r.Results).Any(r => r.PartialFingerprints?.ContainsKey(SarifFormat.FingerprintKey) == true);
        var key = withoutProject ? SarifFormat.FingerprintKeyWithoutProject : SarifFormat.FingerprintKey;
        foreach (var run in log.Runs)
        {
            if (run.Tool?.Driver?.Name != "tplab")
            {
                throw TplabException.Usage($"{path} is a SARIF log of another tool, not of tplab scan");
            }
            // The root folder is recorded; the solution's name is not: a report of another folder is another solution.
            if (run.OriginalUriBaseIds?.GetValueOrDefault(SarifFormat.SourceRoot)?.Uri is { } u
                && !u.TrimEnd('/').EndsWith("/" + Uri.EscapeDataString(Path.GetFileName(rootFolder.TrimEnd('/'))), StringComparison.Ordinal))
            {
                throw TplabException.Usage($"{path} is a scan of {u}, not of {scanned}");
            }
            ids.AddRange(run.Results.Select(r => r.Properties?.Id ?? r.PartialFingerprints?.GetValueOrDefault(key)));
        }
        return new FixReportIds(Ids(ids, path), withoutProject);
    }

    // Every finding of a report of this version has an id scan gave it; one without is from another tplab.
    private static HashSet<string> Ids(IEnumerable<string?> ids, string path)
    {
        var set = new HashSet<string>(StringComparer.Ordinal);
        foreach (var id in ids)
        {
            if (id is null || !FindingId.IsWellFormed(id))
            {
                throw TplabException.Usage($"{path} has a finding without a tplab id: a report of another tplab version? (scan again with this tplab)");
            }
            set.Add(id);
        }
        return set;
    }
}
