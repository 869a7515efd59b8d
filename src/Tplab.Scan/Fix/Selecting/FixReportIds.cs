namespace Tplab.Scan.Fix.Selecting;

/// <summary>
/// The finding ids of a scan report (<c>fix --from</c>). A report written before ids named the project (scan.json schema
/// 2, SARIF's <c>tplabFinding/v2</c>) is matched by the id as it was written then, as it meant: a type two projects
/// declare selects both projects' sites.
/// </summary>
public sealed record FixReportIds(IReadOnlySet<string> Ids, bool WithoutProject)
{
    /// <summary>Whether the report names <paramref name="target"/>.</summary>
    public bool Selects(FixTarget target)
    {
        ArgumentNullException.ThrowIfNull(target);
        return Ids.Contains(WithoutProject ? target.First.IdWithoutProject : target.Id);
    }
}
