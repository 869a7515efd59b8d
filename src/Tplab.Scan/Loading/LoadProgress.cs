using System.Globalization;
using Microsoft.CodeAnalysis.MSBuild;

namespace Tplab.Scan.Loading;

/// <summary>Roslyn's per-project progress, as a status line: which project, how many of how many.</summary>
internal sealed class LoadProgress(IScanProgress progress, int total) : IProgress<ProjectLoadProgress>
{
    private readonly HashSet<string> _done = new(StringComparer.Ordinal);

    public void Report(ProjectLoadProgress value)
    {
        lock (_done)
        {
            if (value.Operation == ProjectLoadOperation.Resolve)
            {
                _done.Add(value.FilePath);
            }
            var name = Path.GetFileNameWithoutExtension(value.FilePath);
            progress.Status(string.Create(CultureInfo.InvariantCulture, $"loading projects: {_done.Count}/{Math.Max(total, _done.Count)} ({name}: {Verb(value.Operation)})"));
        }
    }

    private static string Verb(ProjectLoadOperation operation) => operation switch
    {
        ProjectLoadOperation.Evaluate => "evaluated",
        ProjectLoadOperation.Build => "design-time build",
        _ => "resolved",
    };
}
