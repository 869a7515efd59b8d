using Tplab.Common;

namespace Tplab.Scan;

/// <summary>Options of <c>tplab scan</c>; defaults are stated on each property and checked by <see cref="Validated"/>.</summary>
public sealed record ScanOptions
{
    /// <summary>What to scan: a .sln/.slnx/.slnf, a .csproj, or a folder (default: the current folder).</summary>
    public string Path { get; init; } = ".";

    /// <summary>Scan test projects too (default false: a test's blocking call holds no request's thread).</summary>
    public bool IncludeTests { get; init; }

    /// <summary>Restore projects that have no restore output before loading them (default true); false analyses them unrestored and names what was unresolved.</summary>
    public bool Restore { get; init; } = true;

    /// <summary>The config file with a team's own blocking APIs (default null: <c>tplab-scan.json</c> in the scanned folder when there is one).</summary>
    public string? ConfigFile { get; init; }

    /// <summary>Findings to accept as known (default null: none); they are reported as baselined and do not count for <c>--fail-on</c>.</summary>
    public string? BaselineFile { get; init; }

    /// <summary>The <c>--format</c> (default null: from the output file's extension, else text).</summary>
    public string? Format { get; init; }

    /// <summary>Where the report goes (default null: standard output). Checked before the scan starts.</summary>
    public string? Output { get; init; }

    /// <summary>Exit 11 when findings at or above this severity exist, baselined ones left out (default null: exit 0 whatever was found).</summary>
    public Findings.Severity? FailOn { get; init; }

    /// <summary>Exit as usual when a project could not be read (default false: exit 12, the findings still written).</summary>
    public bool AllowPartial { get; init; }

    /// <summary>Write every finding of this scan to this baseline file (default null: none).</summary>
    public string? WriteBaseline { get; init; }

    /// <summary>Write a lab plan for the scanned service to this file (default null: none); <c>tplab run --plan</c> runs it.</summary>
    public string? PlanFile { get; init; }

    /// <summary>Keep the plan's writes (POST, PUT, PATCH, DELETE) switched on (default false: written with <c>enabled: false</c>).</summary>
    public bool PlanWrites { get; init; }

    /// <summary>The text report's sites: at most this many, worst first (default null: all). JSON and SARIF always hold every site.</summary>
    public int? Top { get; init; }

    /// <summary>The text report's order: by site, worst first (default), or by entry point, each with the sites it reaches.</summary>
    public ScanGrouping GroupBy { get; init; } = ScanGrouping.Site;

    /// <summary>Every error of a skipped or partly read project, and every unresolved name (default false: one line each).</summary>
    public bool Verbose { get; init; }

    /// <summary>The default of <see cref="MaxDepth"/>.</summary>
    public const int DefaultMaxDepth = 40;

    /// <summary>The largest <see cref="MaxDepth"/> accepted.</summary>
    public const int MaxMaxDepth = 200;

    /// <summary>Longest chain followed from an entry point, in calls (<c>--max-depth</c>; default 40; 2 to 200).</summary>
    public int MaxDepth { get; init; } = DefaultMaxDepth;

    /// <summary>
    /// Reuse the result of the previous scan when nothing it read changed, and keep this one for the next (default false
    /// in the library; the CLI turns it on unless <c>--no-cache</c>).
    /// </summary>
    public bool Cache { get; init; }

    /// <summary>Where the cache lives (<c>--cache DIR</c>; default null: <c>obj/tplab-scan/</c> under the scanned root).</summary>
    public string? CacheFolder { get; init; }

    /// <summary>Report only the findings whose chain passes through a file changed since the merge base with this git ref (default null: all).</summary>
    public string? ChangedSince { get; init; }

    /// <summary>
    /// Keep running after the scan: poll its inputs and scan again after each change, rewriting the report (default
    /// false). Ends by Ctrl+C or SIGTERM (exit 130).
    /// </summary>
    public bool Watch { get; init; }

    /// <summary>How often <see cref="Watch"/> polls the inputs (default 0.5 s; a change waits one more interval to settle).</summary>
    public TimeSpan WatchInterval { get; init; } = TimeSpan.FromMilliseconds(500);

    /// <summary>Time source for the durations reported (default the system clock).</summary>
    public TimeProvider Time { get; init; } = TimeProvider.System;

    /// <summary>These options, or a usage error naming the first bad value.</summary>
    public ScanOptions Validated()
    {
        if (string.IsNullOrWhiteSpace(Path))
        {
            throw TplabException.Usage("the path to scan is empty");
        }
        CheckMaxDepth(MaxDepth);
        if (Top is < 1)
        {
            throw TplabException.Usage($"--top must be 1 or more, got {Top.Value.ToString(System.Globalization.CultureInfo.InvariantCulture)}");
        }
        if (FailOn is Findings.Severity.Note)
        {
            throw TplabException.Usage("--fail-on must be warning or error");
        }
        if (PlanWrites && PlanFile is null)
        {
            throw TplabException.Usage("--plan-writes goes with --plan FILE");
        }
        if (CacheFolder is not null && !Cache)
        {
            throw TplabException.Usage("--cache DIR and --no-cache contradict each other: give one");
        }
        if (CacheFolder is not null && (CacheFolder.Length == 0 || File.Exists(CacheFolder)))
        {
            throw TplabException.Usage($"--cache '{CacheFolder}': give a folder (it is created when missing), not a file");
        }
        if (ChangedSince is { } since && (since.Length == 0 || since.StartsWith('-')))
        {
            throw TplabException.Usage($"--changed-since '{since}': give a git commit, branch or tag (origin/main)");
        }
        if (ChangedSince is not null && WriteBaseline is not null)
        {
            throw TplabException.Usage("--write-baseline records every finding; it does not go with --changed-since, which reports some");
        }
        if (Watch && (FailOn is not null || WriteBaseline is not null || PlanFile is not null || ChangedSince is not null))
        {
            var other = FailOn is not null ? "--fail-on" : WriteBaseline is not null ? "--write-baseline" : PlanFile is not null ? "--plan" : "--changed-since";
            throw TplabException.Usage($"--watch rewrites the report after every change until Ctrl+C; {other} belongs to a scan that ends: run it without --watch");
        }
        if (ConfigFile is not null && !File.Exists(ConfigFile))
        {
            throw TplabException.Usage($"no config file {ConfigFile}");
        }
        if (BaselineFile is not null && !File.Exists(BaselineFile))
        {
            throw TplabException.Usage($"no baseline file {BaselineFile} (write one with --write-baseline)");
        }
        return this;
    }

    /// <summary>A usage error when <paramref name="maxDepth"/> is out of range (scan's and fix's <c>--max-depth</c>).</summary>
    internal static void CheckMaxDepth(int maxDepth)
    {
        if (maxDepth is < 2 or > MaxMaxDepth)
        {
            throw TplabException.Usage(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"--max-depth must be between 2 and {MaxMaxDepth} calls, got {maxDepth}"));
        }
    }
}

/// <summary>How the text report lists findings (<c>--group-by</c>).</summary>
public enum ScanGrouping
{
    /// <summary>Each blocking site once, worst first, with the entry points that reach it.</summary>
    Site,

    /// <summary>Each entry point, with the sites it reaches.</summary>
    Endpoint,
}
