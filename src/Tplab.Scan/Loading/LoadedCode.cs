using Microsoft.CodeAnalysis;

namespace Tplab.Scan.Loading;

/// <summary>One project read by Roslyn: its compilation, and what could not be resolved when it was not restored.</summary>
public sealed record LoadedProject(Project Project, Compilation Compilation, IReadOnlyList<string> Unresolved)
{
    public string Name => ProjectName.Of(Project);
}

/// <summary>A project that was not analysed, or analysed in part, and why in one line (the first error and how many others); every error in <paramref name="Details"/> (--verbose).</summary>
public sealed record SkippedProject(string Name, string Reason)
{
    /// <summary>Every error MSBuild or the compiler gave, one per entry (printed with --verbose only).</summary>
    public IReadOnlyList<string> Details { get; init; } = [];

    public override string ToString() => $"{Name}: {Reason}";

    /// <summary>One line from a list of errors: the first (cut to <paramref name="width"/>), and how many others there are.</summary>
    public static string OneLine(IReadOnlyList<string> errors, int width = 160, bool brief = false)
    {
        if (errors.Count == 0)
        {
            return "";
        }
        var first = errors[0].ReplaceLineEndings(" ").Trim();
        first = first.Length > width ? first[..(width - 1)].TrimEnd() + "…" : first;
        return errors.Count == 1 ? first
            : brief ? $"{first} (+{errors.Count - 1})"
            : $"{first} (and {errors.Count - 1} other error(s); --verbose lists them)";
    }
}

/// <summary>The code a scan reads: the loaded projects, those skipped (and why) and the test projects left out.</summary>
public sealed class LoadedCode(Workspace? workspace, ScanInput input, IReadOnlyList<LoadedProject> projects, IReadOnlyList<SkippedProject> skipped, IReadOnlyList<string> leftOut,
    IReadOnlyList<SkippedProject>? readInPart = null)
    : IDisposable
{
    public ScanInput Input { get; } = input;

    public IReadOnlyList<LoadedProject> Projects { get; } = projects;

    /// <summary>Projects that could not be read: the scan is partial when any is here.</summary>
    public IReadOnlyList<SkippedProject> Skipped { get; } = skipped;

    /// <summary>Projects analysed, but without some of their references (not restored, a package missing, an import MSBuild could not evaluate): the scan is partial too.</summary>
    public IReadOnlyList<SkippedProject> ReadInPart { get; } = readInPart ?? [];

    /// <summary>Errors MSBuild reported for several projects (a solution's restore errors): said once, not per project.</summary>
    public IReadOnlyList<string> SharedErrors { get; init; } = [];

    /// <summary>Test projects left out (scan them with --include-tests).</summary>
    public IReadOnlyList<string> LeftOutTests { get; } = leftOut;

    /// <summary>The workspace holds the build host's results; disposing it releases them.</summary>
    public void Dispose() => workspace?.Dispose();
}

/// <summary>Project names as users know them: <c>Orders.Api</c>, not <c>Orders.Api(net10.0)</c>.</summary>
internal static class ProjectName
{
    public static string Of(Project project) =>
        project.FilePath is { } path ? Path.GetFileNameWithoutExtension(path) : project.Name;
}
