using Tplab.Scan.Findings;
using Tplab.Scan.Loading;

namespace Tplab.Scan;

/// <summary>What a scan found and what it read: the findings (suppressed ones apart), the projects analysed and skipped, and the figures of the run.</summary>
public sealed record ScanResult(
    ScanInput Input,
    IReadOnlyList<Finding> Findings,
    IReadOnlyList<Finding> Suppressed,
    IReadOnlyList<string> Analysed,
    IReadOnlyList<SkippedProject> Skipped,
    IReadOnlyList<string> LeftOutTests,
    int EntryPoints,
    int MethodsRead,
    TimeSpan LoadTime,
    TimeSpan AnalysisTime)
{
    /// <summary>A project could not be read, or only in part: the findings may miss what it holds.</summary>
    public bool Partial => Skipped.Count > 0;

    /// <summary>Findings at <paramref name="severity"/>, baselined ones left out.</summary>
    public int Count(Severity severity) => Findings.Count(f => f.Severity == severity && !f.Baselined);

    /// <summary>Findings at or above <paramref name="severity"/> that are not in the baseline (what --fail-on counts).</summary>
    public int AtLeast(Severity severity) => Findings.Count(f => f.Severity >= severity && !f.Baselined);

    public int Baselined => Findings.Count(f => f.Baselined);
}
