using Tplab.Scan.Fix.Output;
using Tplab.Scan.Fix.Selecting;

namespace Tplab.Scan.Fix;

/// <summary>What became of a finding.</summary>
public enum FixStatus
{
    /// <summary>The blocking call and every method up to the root are async; the build compiles.</summary>
    Fixed,

    /// <summary>Async up to a boundary that cannot be (a constructor, an accessor, a package's interface...): it waits on the task there.</summary>
    PartlyFixed,

    /// <summary>Nothing changed for it: no mechanical rewrite, or the rewrite did not compile.</summary>
    Refused,
}

/// <summary>A file and the lines of the new text that a fix changed (1-based).</summary>
public sealed record TouchedFile(string File, IReadOnlyList<int> Lines);

/// <summary>One finding's outcome: the site, the roots reaching it, what was done or why not, and what is left.</summary>
public sealed record FixOutcome(
    string Id,
    string BlockingCall,
    string UserMethod,
    string File,
    int Line,
    IReadOnlyList<string> Roots,
    FixStatus Status,
    string? Reason,
    IReadOnlyList<string> Changes,
    IReadOnlyList<TouchedFile> Touched,
    IReadOnlyList<string> Boundaries,
    IReadOnlyList<string> Notes)
{
    /// <summary>The id (<c>TPFIX0xx</c>, <see cref="Checks.FixReasons"/>) of the reason it was refused or stopped at a boundary; null when fixed.</summary>
    public string? Check => Status == FixStatus.Fixed ? null
        : Checks.FixReasons.IdIn(Reason) ?? Boundaries.Select(Checks.FixReasons.IdIn).FirstOrDefault(id => id is not null);

    /// <summary>Other selected findings this fix removed too (a contended lock it turned into a semaphore); they get this outcome.</summary>
    public IReadOnlyList<string> AlsoFixed { get; init; } = [];
}

/// <summary>A file the fixes change: full path, path relative to the fixed root, and its text before and after.</summary>
public sealed record FileChange(string Path, string Relative, string Before, string After);

/// <summary>The result of <c>tplab fix</c>: every selected finding's outcome and the files changed.</summary>
public sealed record FixResult(string Scanned, string Root, IReadOnlyList<FixOutcome> Outcomes, IReadOnlyList<FileChange> Files)
{
    /// <summary>The scan the fix worked from (default null: not kept).</summary>
    public ScanResult? Scan { get; init; }

    /// <summary>The sites selected, each with its findings, in <see cref="Outcomes"/>' order (default: none kept).</summary>
    public IReadOnlyList<FixTarget> Targets { get; init; } = [];

    /// <summary>
    /// <see cref="Scan"/> restricted to the findings this run fixed or partly fixed (their code changes): what
    /// <c>--plan</c> proves under load; null when the scan was not kept.
    /// </summary>
    public ScanResult? Changed()
    {
        var status = Outcomes.ToDictionary(o => o.Id, o => o.Status, StringComparer.Ordinal);
        var notHealed = NotHealed();
        // An endpoint that still reaches a refused finding still holds the pool: loading it proves nothing of the fix.
        return Scan is null ? null : Scan with
        {
            Findings = [.. Targets.Where(t => status.GetValueOrDefault(t.Id, FixStatus.Refused) != FixStatus.Refused).SelectMany(t => t.Findings)
                .Select(f => f with { Roots = [.. f.Roots.Where(r => !notHealed.ContainsKey(r.Root.Key))] })
                .Where(f => f.Roots.Count > 0)],
            Suppressed = [],
        };
    }

    /// <summary>The resolved tree the files were checked to lie in (<see cref="ApplyScope"/>); the patch is relative to it (default null: the git top of <see cref="Root"/>).</summary>
    public string? PatchRoot { get; init; }

    /// <summary>The roots that still reach a refused finding (by scan's key), each with the first such outcome: not healed by this fix.</summary>
    public IReadOnlyDictionary<string, FixOutcome> NotHealed()
    {
        var notHealed = new Dictionary<string, FixOutcome>(StringComparer.Ordinal);
        foreach (var o in Outcomes.Where(o => o.Status == FixStatus.Refused))
        {
            foreach (var root in o.Roots)
            {
                notHealed.TryAdd(root, o);
            }
        }
        return notHealed;
    }

    /// <summary>Whether the files were written (<c>--apply</c>).</summary>
    public bool Applied { get; init; }

    public int Count(FixStatus status) => Outcomes.Count(o => o.Status == status);

    /// <summary>
    /// The whole change as one unified diff. Paths are relative to the top of the git work tree that holds the root
    /// (where <c>git apply</c> reads them from), else to the fixed root.
    /// </summary>
    public string Patch
    {
        get
        {
            var top = PatchRoot ?? GitTop(Root) ?? Root;
            return string.Concat(Files.Select(f => UnifiedDiff.Of(System.IO.Path.GetRelativePath(top, f.Path).Replace('\\', '/'), f.Before, f.After)));
        }
    }

    private static string? GitTop(string folder)
    {
        for (var d = new DirectoryInfo(folder); d is not null; d = d.Parent)
        {
            if (Directory.Exists(System.IO.Path.Combine(d.FullName, ".git")) || File.Exists(System.IO.Path.Combine(d.FullName, ".git")))
            {
                return d.FullName;
            }
        }
        return null;
    }
}
