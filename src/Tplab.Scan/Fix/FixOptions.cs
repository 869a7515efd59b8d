using Tplab.Common;
using Tplab.Scan.Findings;
using Tplab.Scan.Fix.Output;

namespace Tplab.Scan.Fix;

/// <summary>Options of <c>tplab fix</c>; defaults are stated on each property and checked by <see cref="Validated"/>.</summary>
public sealed record FixOptions
{
    /// <summary>What to fix: a .sln/.slnx/.slnf, a .csproj, or a folder (default: the current folder).</summary>
    public string Path { get; init; } = ".";

    /// <summary>Only findings on this route (<c>GET /orders/{id}</c>, or just <c>/orders/{id}</c>; default null: every root).</summary>
    public string? Route { get; init; }

    /// <summary>Only these finding ids (scan's <c>tp-…</c> ids; default empty: every finding).</summary>
    public IReadOnlyList<string> FindingIds { get; init; } = [];

    /// <summary>Only findings at this severity or above (default null: errors and warnings).</summary>
    public Severity? Severity { get; init; }

    /// <summary>Only the findings of this scan report (scan.json or scan.sarif of the same solution; default null).</summary>
    public string? From { get; init; }

    /// <summary>Edit the files in place (default false: write a unified diff and change nothing).</summary>
    public bool Apply { get; init; }

    /// <summary>With <see cref="Apply"/>: edit files that have uncommitted changes in git (default false: refused).</summary>
    public bool Force { get; init; }

    /// <summary>Where the patch or report goes (default null: standard output).</summary>
    public string? Output { get; init; }

    /// <summary>
    /// Write the lab plan that proves the fix here (default null: none): scan's plan (<c>scan --plan</c>) restricted to
    /// the findings this run fixed or partly fixed, to run before and after <see cref="Apply"/>.
    /// </summary>
    public string? Plan { get; init; }

    /// <summary>With <see cref="Plan"/>: keep POST, PUT, PATCH and DELETE scenarios switched on (default false).</summary>
    public bool PlanWrites { get; init; }

    /// <summary><c>patch</c>, <c>text</c>, <c>json</c> or <c>sarif</c> (default null: the one <see cref="Output"/>'s extension means, else <c>patch</c>, or <c>text</c> with <see cref="Apply"/>).</summary>
    public string? Format { get; init; }

    /// <summary>The Async suffix on changed methods (default <see cref="RenameMode.Auto"/>: the solution's convention).</summary>
    public RenameMode Rename { get; init; } = RenameMode.Auto;

    /// <summary>
    /// Give each method whose return type changes a <c>CancellationToken cancellationToken = default</c> parameter when
    /// it has none, and pass the token down to the new async calls (default false: no parameter is ever added).
    /// </summary>
    public bool AddCancellation { get; init; }

    /// <summary>With <see cref="Apply"/>: a command run after the files are written (<c>dotnet test</c>); when it fails, every change is reverted (default null).</summary>
    public string? Verify { get; init; }

    /// <summary>Restore projects that have no restore output before loading them (default true).</summary>
    public bool Restore { get; init; } = true;

    /// <summary><c>--analyzers</c>: the compile check runs each project's analyzers too and lists the warnings a fix adds (default: the compiler's diagnostics only).</summary>
    public bool Analyzers { get; init; }

    /// <summary>Scan's config file (<c>--config</c>): the team's own blocking APIs, read as scan reads it; default: <c>tplab-scan.json</c> at the root when there is one.</summary>
    public string? ConfigFile { get; init; }

    /// <summary>Longest chain scan follows from an entry point, in calls (<c>--max-depth</c>, as scan's; default 40; 2 to 200).</summary>
    public int MaxDepth { get; init; } = ScanOptions.DefaultMaxDepth;

    /// <summary>Most methods one finding's fix may change before it is refused as too wide, checked before the callers are visited (default 200; <c>--max-methods</c>).</summary>
    public int MaxMethods { get; init; } = 200;

    /// <summary>
    /// Exit 0 when some findings were fixed and others refused or partly fixed (default false: exit 12), so the loop
    /// goes on with what was fixed; with nothing fixed at all it is still 12.
    /// </summary>
    public bool AllowPartial { get; init; }

    /// <summary>The report format this run writes.</summary>
    public IFixFormat EffectiveFormat => FixFormats.For(Format, Output, Apply);

    /// <summary>These options, or a usage error naming the first bad value.</summary>
    public FixOptions Validated()
    {
        if (string.IsNullOrWhiteSpace(Path))
        {
            throw TplabException.Usage("the path to fix is empty");
        }
        var format = EffectiveFormat;
        if (format.ChangesToMake is { } changes && Apply)
        {
            throw TplabException.Usage($"--apply edits the files: its report is text or json, not {changes} (changes still to make){(Format is null ? $"; give --format text or json for {Output}" : "")}");
        }
        if (PlanWrites && Plan is null)
        {
            throw TplabException.Usage("--plan-writes goes with --plan FILE");
        }
        if (Force && !Apply)
        {
            throw TplabException.Usage("--force goes with --apply");
        }
        if (Verify is not null && !Apply)
        {
            throw TplabException.Usage("--verify goes with --apply (it runs after the files are written)");
        }
        if (Verify is not null && string.IsNullOrWhiteSpace(Verify))
        {
            throw TplabException.Usage("--verify needs a command");
        }
        ScanOptions.CheckMaxDepth(MaxDepth);
        if (Severity is Findings.Severity.Note)
        {
            throw TplabException.Usage("--severity must be warning or error");
        }
        if (FindingIds.FirstOrDefault(id => !FindingId.IsWellFormed(id)) is { } bad)
        {
            // Quoted up to 40 characters: the line is cut at 1,000, and a longer value would push the reason out of it.
            throw TplabException.Usage($"--finding '{(bad.Length > 40 ? bad[..40] + "…" : bad)}' is not a finding id (scan's ids look like {FindingId.Prefix}0123456789)");
        }
        if (ConfigFile is not null && !File.Exists(ConfigFile))
        {
            throw TplabException.Usage($"no config file {ConfigFile}");
        }
        if (From is not null && !File.Exists(From))
        {
            throw TplabException.Usage($"no scan report {From} (write one with tplab scan -o scan.json)");
        }
        if (Route is not null && string.IsNullOrWhiteSpace(Route))
        {
            throw TplabException.Usage("--route needs a route");
        }
        if (MaxMethods < 1)
        {
            throw TplabException.Usage("--max-methods must be at least 1");
        }
        return this;
    }
}
