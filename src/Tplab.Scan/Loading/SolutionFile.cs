using System.Text.Json;
using Microsoft.VisualStudio.SolutionPersistence.Serializer;
using Tplab.Common;

namespace Tplab.Scan.Loading;

/// <summary>The projects a solution lists (.sln, .slnx, or a .slnf filter of one), read with the format's own library.</summary>
internal static class SolutionFile
{
    /// <summary>The full paths of the projects in <paramref name="solution"/>; a usage error (exit 2) when it cannot be read.</summary>
    public static async Task<IReadOnlyList<string>> ProjectsAsync(string solution, CancellationToken cancellationToken)
    {
        if (solution.EndsWith(".slnf", StringComparison.OrdinalIgnoreCase))
        {
            return await FilterProjectsAsync(solution, cancellationToken).ConfigureAwait(false);
        }
        var serializer = SolutionSerializers.GetSerializerByMoniker(solution)
            ?? throw TplabException.Usage($"{solution} is not a solution file tplab can read (.sln, .slnx, .slnf)");
        try
        {
            var model = await serializer.OpenAsync(solution, cancellationToken).ConfigureAwait(false);
            var folder = Path.GetDirectoryName(solution)!;
            return [.. model.SolutionProjects.Select(p => Path.GetFullPath(Path.Combine(folder, p.FilePath.Replace('\\', '/'))))];
        }
        catch (Exception e) when (e is not OperationCanceledException and not TplabException)
        {
            throw TplabException.Usage($"could not read {solution}: {e.Message.ReplaceLineEndings(" ")}");
        }
    }

    // {"solution": {"path": "All.sln", "projects": ["src\\A\\A.csproj", ...]}}: the project paths are relative to the .sln.
    private static async Task<IReadOnlyList<string>> FilterProjectsAsync(string filter, CancellationToken cancellationToken)
    {
        try
        {
            await using var stream = File.OpenRead(filter);
            using var document = await JsonDocument.ParseAsync(stream, cancellationToken: cancellationToken).ConfigureAwait(false);
            var solution = document.RootElement.GetProperty("solution");
            var slnPath = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(filter)!, solution.GetProperty("path").GetString()!.Replace('\\', '/')));
            var folder = Path.GetDirectoryName(slnPath)!;
            return [.. solution.GetProperty("projects").EnumerateArray().Select(p => Path.GetFullPath(Path.Combine(folder, p.GetString()!.Replace('\\', '/'))))];
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException or IOException)
        {
            throw TplabException.Usage($"could not read the solution filter {filter}: {e.Message.ReplaceLineEndings(" ")}");
        }
    }
}
