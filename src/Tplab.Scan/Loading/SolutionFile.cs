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
            return FilterProjects(solution);
        }
        var serializer = SolutionSerializers.GetSerializerByMoniker(solution)
            ?? throw TplabException.Usage($"{solution} is not a solution file tplab can read (.sln, .slnx, .slnf)");
        // The format's library reads the file itself: it gets a regular file within the limit, never a FIFO or a device.
        using (var file = InputFile.Open(solution, "the solution"))
        {
            if (file.Length > InputLimit.Solution.Bytes)
            {
                throw InputLimit.Solution.TooLarge("the solution", solution);
            }
        }
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
    private static IReadOnlyList<string> FilterProjects(string filter)
    {
        try
        {
            using var document = JsonDocument.Parse(InputFile.ReadBytes(filter, "the solution filter", InputLimit.Solution));
            var solution = document.RootElement.GetProperty("solution");
            var slnPath = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(filter)!, solution.GetProperty("path").GetString()!.Replace('\\', '/')));
            if (!File.Exists(slnPath))
            {
                // dotnet build refuses such a filter: its projects' paths are relative to a solution that is not there.
                throw TplabException.Usage($"the solution filter {filter} filters {slnPath}, which does not exist");
            }
            var folder = Path.GetDirectoryName(slnPath)!;
            return [.. solution.GetProperty("projects").EnumerateArray().Select(p => Path.GetFullPath(Path.Combine(folder, p.GetString()!.Replace('\\', '/'))))];
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException or IOException)
        {
            throw TplabException.Usage($"could not read the solution filter {filter}: {e.Message.ReplaceLineEndings(" ")}");
        }
    }
}
