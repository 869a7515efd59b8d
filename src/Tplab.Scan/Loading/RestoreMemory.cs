using System.Security.Cryptography;
using System.Text;
using Tplab.Common;

namespace Tplab.Scan.Loading;

/// <summary>
/// Restores that failed, remembered so the next scan of the same code does not run them again (a package missing
/// from the feed fails the same way every time; a large solution's restore is tens of seconds). Keyed by what a
/// restore depends on: each project's path and content, and the content of the files MSBuild and NuGet read above it
/// (Directory.Build.props/targets, Directory.Packages.props, NuGet.config, global.json). Change any of them, or
/// delete the file the line names, and the next scan restores again. Kept under <c>$XDG_CACHE_HOME/tplab</c>
/// (else <c>~/.cache/tplab</c>).
/// </summary>
internal static class RestoreMemory
{
    private static readonly string[] Inputs =
        ["Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props", "NuGet.config", "nuget.config", "NuGet.Config", "global.json"];

    /// <summary>The file that remembers a failed restore of exactly these projects as they are now.</summary>
    public static string FileFor(IReadOnlyList<ProjectFile> projects, string? cacheFolder = null)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        var read = new HashSet<string>(StringComparer.Ordinal);
        foreach (var project in projects.OrderBy(p => p.Path, StringComparer.Ordinal))
        {
            Add(hash, project.Path);
            for (var folder = Path.GetDirectoryName(project.Path); folder is not null; folder = Path.GetDirectoryName(folder))
            {
                foreach (var input in Inputs.Select(i => Path.Combine(folder, i)).Where(read.Add))
                {
                    Add(hash, input);
                }
            }
        }
        var key = Convert.ToHexStringLower(hash.GetHashAndReset())[..16];
        return Path.Combine(cacheFolder ?? Folder(), "restore-failed", key + ".txt");
    }

    /// <summary>Why the restore failed the last time, when it did for these very inputs; else null.</summary>
    public static string? Failed(string file)
    {
        try
        {
            return File.Exists(file) ? File.ReadAllText(file).Trim() : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Remembers the failure; a cache that cannot be written only means the next scan restores again.</summary>
    public static void Remember(string file, string why)
    {
        try
        {
            Directory.CreateDirectory(Path.GetDirectoryName(file)!);
            AtomicFile.WriteAllText(file, why + "\n");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or TplabException)
        {
        }
    }

    private static string Folder() =>
        Environment.GetEnvironmentVariable("XDG_CACHE_HOME") is { Length: > 0 } xdg ? Path.Combine(xdg, "tplab")
        : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".cache", "tplab");

    private static void Add(IncrementalHash hash, string path)
    {
        hash.AppendData(Encoding.UTF8.GetBytes(path + "\0"));
        try
        {
            hash.AppendData(File.Exists(path) ? File.ReadAllBytes(path) : [0xFF]);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            hash.AppendData([0xFE]);
        }
        hash.AppendData([0]);
    }
}
