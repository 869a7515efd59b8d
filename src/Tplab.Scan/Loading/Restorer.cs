using System.Globalization;
using System.Text.Json;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Scan.Loading;

/// <summary>
/// Runs <c>dotnet</c> over the projects to scan as a developer would before opening them: the restore (MSBuildWorkspace
/// does not restore, and a project without its packages loses every call into them), and MSBuild's restore graph,
/// which says where each project's restore output is (a Directory.Build.props may move <c>obj/</c>). Each runs with
/// <c>-nodeReuse:false</c> (no MSBuild node outlives it) in a guarded process group that ends with tplab, even on kill -9.
/// </summary>
internal static class Restorer
{
    /// <summary>The command line, for the one line that says what runs.</summary>
    public static string CommandFor(string target) => $"dotnet restore {Path.GetFileName(target)} -nodeReuse:false";

    /// <summary>Restores <paramref name="target"/> (a solution, filter or project); the last lines of its output when it failed, else null.</summary>
    public static async Task<string?> RestoreAsync(string target, string folder, CancellationToken cancellationToken) =>
        await RunAsync($"dotnet restore {Quote(target)} -nodeReuse:false --verbosity quiet -clp:ErrorsOnly -nologo", folder, cancellationToken).ConfigureAwait(false);

    /// <summary>
    /// Where MSBuild puts each project's restore output, as it evaluates the projects of <paramref name="target"/>
    /// (<c>MSBuildProjectExtensionsPath</c>, where the restore writes <c>project.assets.json</c> and the SDK's
    /// <c>ProjectAssetsFile</c> points), by project path; empty when MSBuild could not write the graph.
    /// </summary>
    public static async Task<IReadOnlyDictionary<string, string>> AssetsFilesAsync(string target, string folder, CancellationToken cancellationToken)
    {
        var temp = Directory.CreateTempSubdirectory("tplab-restore-graph-").FullName;
        try
        {
            var graph = Path.Combine(temp, "graph.json");
            await RunAsync($"dotnet msbuild {Quote(target)} -t:GenerateRestoreGraphFile -p:RestoreGraphOutputPath={Quote(graph)} -nodeReuse:false -v:q -nologo",
                folder, cancellationToken).ConfigureAwait(false);
            return File.Exists(graph) ? Read(graph) : new Dictionary<string, string>();
        }
        finally
        {
            Directory.Delete(temp, recursive: true);
        }
    }

    // The restore graph (NuGet's dgspec): projects.<path>.restore.outputPath.
    private static Dictionary<string, string> Read(string graph)
    {
        var found = new Dictionary<string, string>(StringComparer.Ordinal);
        try
        {
            using var document = JsonDocument.Parse(File.ReadAllBytes(graph));
            if (!document.RootElement.TryGetProperty("projects", out var projects) || projects.ValueKind != JsonValueKind.Object)
            {
                return found;
            }
            foreach (var project in projects.EnumerateObject())
            {
                if (project.Value.TryGetProperty("restore", out var restore) && restore.TryGetProperty("outputPath", out var output) && output.GetString() is { } path)
                {
                    found[Path.GetFullPath(project.Name)] = Path.Combine(path, "project.assets.json");
                }
            }
        }
        catch (JsonException)
        {
            // An unreadable graph says nothing: every project keeps the SDK's default place.
        }
        return found;
    }

    private static async Task<string?> RunAsync(string commandLine, string folder, CancellationToken cancellationToken)
    {
        // Telemetry and the first-run banner would only add noise to the lines kept for an error message.
        var environment = new Dictionary<string, string>
        {
            ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
            ["DOTNET_NOLOGO"] = "1",
            ["MSBUILDDISABLENODEREUSE"] = "1",
        };
        await using var run = await GuardedCommand.StartAsync(commandLine, folder, environment, "dotnet", cancellationToken).ConfigureAwait(false);
        await run.Guardian.Exited.WaitAsync(cancellationToken).ConfigureAwait(false);
        var code = run.ExitCode ?? -1;
        if (code == 0)
        {
            return null;
        }
        var lines = run.Guardian.RecentOutput.Where(l => !l.StartsWith("tplab-guardian:", StringComparison.Ordinal) && !string.IsNullOrWhiteSpace(l)).TakeLast(2);
        return $"exit code {code.ToString(CultureInfo.InvariantCulture)}: {string.Join(" | ", lines.Select(l => l.Trim()))}";
    }

    private static string Quote(string path) => "'" + path.Replace("'", "'\\''", StringComparison.Ordinal) + "'";
}
