using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;

namespace Tplab.Scan.Loading;

/// <summary>One project read by Roslyn: its compilation, and what could not be resolved when it was not restored.</summary>
public sealed record LoadedProject(Project Project, Compilation Compilation, IReadOnlyList<string> Unresolved)
{
    public string Name => ProjectName.Of(Project);
}

/// <summary>A project that was not analysed, and why, in one line.</summary>
public sealed record SkippedProject(string Name, string Reason)
{
    public override string ToString() => $"{Name}: {Reason}";
}

/// <summary>The code a scan reads: the loaded projects, those skipped (and why) and the test projects left out.</summary>
public sealed class LoadedCode(MSBuildWorkspace? workspace, ScanInput input, IReadOnlyList<LoadedProject> projects, IReadOnlyList<SkippedProject> skipped, IReadOnlyList<string> leftOut)
    : IDisposable
{
    public ScanInput Input { get; } = input;

    public IReadOnlyList<LoadedProject> Projects { get; } = projects;

    /// <summary>Projects that could not be read (or only in part: unrestored): the scan is partial when any is here.</summary>
    public IReadOnlyList<SkippedProject> Skipped { get; } = skipped;

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
