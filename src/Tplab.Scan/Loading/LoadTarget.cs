using System.Text.Json;
using Tplab.Common;

namespace Tplab.Scan.Loading;

/// <summary>
/// What MSBuild is given for the projects to scan, so that its build host, the restore and the restore graph read
/// exactly those and start once: the project itself when there is one, the user's solution when every project of it
/// is scanned, else a temporary solution filter of it (test projects left out; <c>$(SolutionDir)</c> stays theirs),
/// or a temporary solution listing a folder's projects. The temporary folder goes with it.
/// </summary>
internal sealed class LoadTarget : IDisposable
{
    private readonly string? _temp;

    private LoadTarget(string path, string? temp, bool single) => (Path, _temp, IsProject) = (path, temp, single);

    /// <summary>The project, solution or filter to hand to MSBuild.</summary>
    public string Path { get; }

    /// <summary>A solution tplab wrote for this scan (a filter, or a folder's projects), not a file the user knows.</summary>
    public bool IsTemporary => _temp is not null;

    /// <summary>Only one project: MSBuild opens it as a project.</summary>
    public bool IsProject { get; }

    /// <summary>The folder <c>dotnet</c> runs in: the user's solution's or project's (its global.json, its NuGet.config).</summary>
    public static string FolderOf(ScanInput input) => input.Solution is { } sln ? System.IO.Path.GetDirectoryName(sln)! : input.Root;

    public static LoadTarget For(ScanInput input, IReadOnlyList<ProjectFile> all, IReadOnlyList<ProjectFile> toLoad)
    {
        if (toLoad.Count == 1)
        {
            return new LoadTarget(toLoad[0].Path, null, single: true);
        }
        if (input.Solution is { } sln && toLoad.Count == all.Count && !sln.EndsWith(".slnf", StringComparison.OrdinalIgnoreCase))
        {
            return new LoadTarget(sln, null, single: false);
        }
        var temp = Directory.CreateTempSubdirectory("tplab-scan-").FullName;
        var path = input.Solution is { } original && !original.EndsWith(".slnf", StringComparison.OrdinalIgnoreCase)
            ? WriteFilter(temp, original, toLoad)
            : WriteSolution(temp, toLoad);
        return new LoadTarget(path, temp, single: false);
    }

    public void Dispose()
    {
        if (_temp is not null && Directory.Exists(_temp))
        {
            Directory.Delete(_temp, recursive: true);
        }
    }

    private static string WriteFilter(string folder, string solution, IReadOnlyList<ProjectFile> projects)
    {
        var path = System.IO.Path.Combine(folder, "scan.slnf");
        var slnFolder = System.IO.Path.GetDirectoryName(solution)!;
        using (var file = AtomicFile.Create(path))
        {
            using (var json = new Utf8JsonWriter(((StreamWriter)file.Writer).BaseStream, new JsonWriterOptions { Indented = true }))
            {
                json.WriteStartObject();
                json.WriteStartObject("solution");
                json.WriteString("path", solution);
                json.WriteStartArray("projects");
                foreach (var p in projects)
                {
                    json.WriteStringValue(System.IO.Path.GetRelativePath(slnFolder, p.Path));
                }
                json.WriteEndArray();
                json.WriteEndObject();
                json.WriteEndObject();
            }
            file.Commit();
        }
        return path;
    }

    // Projects found in a folder have no solution: a temporary one lists them so they load together.
    private static string WriteSolution(string folder, IReadOnlyList<ProjectFile> projects)
    {
        var path = System.IO.Path.Combine(folder, "scan.slnx");
        AtomicFile.Write(path, w =>
        {
            w.WriteLine("<Solution>");
            foreach (var p in projects)
            {
                w.WriteLine($"  <Project Path=\"{System.Security.SecurityElement.Escape(p.Path)}\" />");
            }
            w.WriteLine("</Solution>");
        });
        return path;
    }
}
