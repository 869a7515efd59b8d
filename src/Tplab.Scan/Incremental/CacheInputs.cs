using System.Security.Cryptography;
using System.Text;
using Tplab.Common;
using Tplab.Scan.Loading;

namespace Tplab.Scan.Incremental;

/// <summary>
/// What a scan's result depends on, recorded after a full scan and compared before the next: every file the load read
/// (<see cref="ScanInputs.Of"/>: the solution, projects, sources, additional files, editorconfigs, imported props and
/// targets), each project's restore output (<c>obj/project.assets.json</c>, the NuGet props and targets), the config
/// (or its absence) and the baseline, each with its SHA-256 (a changed file is found even when its size and time were
/// kept); and the listings of the folders whose globs pick up sources, so an added or deleted file is seen.
/// </summary>
internal static class CacheInputs
{
    // The kinds of files an SDK project's globs or MSBuild's imports pick up that can change what scan reads.
    private static readonly string[] ListedExtensions = [".cs", ".csproj", ".props", ".targets", ".sln", ".slnx", ".slnf", ".razor", ".cshtml", ".editorconfig", ".globalconfig"];
    private static readonly string[] ListedNames = ["global.json", "nuget.config"];
    private static readonly string[] SkippedFolders = ["bin", "obj", "node_modules"];

    /// <summary>The inputs of a scan of <paramref name="code"/>, with <paramref name="others"/> (the config path, read or not; the baseline).</summary>
    /// <remarks>
    /// A file <paramref name="known"/> holds with the same size and modification time is not read again (the cache's
    /// check just hashed it); one written since is, and <see cref="WrittenDuring"/> then sees its new time.
    /// </remarks>
    public static (List<CachedInput> Files, List<CachedListing> Listings) Record(LoadedCode code, IEnumerable<string> others, IReadOnlyDictionary<string, CachedInput>? known = null)
    {
        var paths = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var (_, path) in ScanInputs.Of(code))
        {
            paths.Add(Path.GetFullPath(path));
        }
        var folders = new SortedSet<string>(StringComparer.Ordinal) { Path.GetFullPath(code.Input.Root) };
        // The restore output (which packages, which versions) sits in the project's obj/, or where a Directory.Build.props
        // moved it: above the generated sources the design-time build wrote (artifacts/obj/Web/Debug/net10.0/...).
        var restoreFolders = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var project in code.Projects.Select(p => p.Project.FilePath).OfType<string>())
        {
            var folder = Path.GetDirectoryName(Path.GetFullPath(project))!;
            folders.Add(folder);
            restoreFolders.Add(Path.Combine(folder, "obj"));
        }
        foreach (var generated in paths.Where(p => p.Contains(Path.DirectorySeparatorChar + "obj" + Path.DirectorySeparatorChar, StringComparison.Ordinal)).ToList())
        {
            for (var (up, level) = (Path.GetDirectoryName(generated), 0); up is not null && level < 4; (up, level) = (Path.GetDirectoryName(up), level + 1))
            {
                restoreFolders.Add(up);
            }
        }
        foreach (var restore in restoreFolders.Where(Directory.Exists).SelectMany(Directory.EnumerateFiles).Where(f => f.EndsWith("project.assets.json", StringComparison.Ordinal)
            || f.EndsWith(".nuget.g.props", StringComparison.Ordinal) || f.EndsWith(".nuget.g.targets", StringComparison.Ordinal)))
        {
            paths.Add(restore);
        }
        foreach (var other in others)
        {
            paths.Add(Path.GetFullPath(other));
        }
        // A folder below another listed one is listed with it.
        var top = folders.Where(f => !folders.Any(o => o != f && RealPath.IsUnder(f, o))).ToList();
        return ([.. paths.Select(p => known?.GetValueOrDefault(p) is { Size: >= 0 } k && Unchanged(p, k) ? k : Of(p))], [.. top.Select(ListingOf)]);
    }

    /// <summary>
    /// Every recorded input that is not as it was, in words (<c>Api/Orders.cs changed</c>), inputs first, then folder
    /// listings; <c>Edited</c> is the file's path when only its contents changed (it was there before and is now).
    /// </summary>
    public static List<(string Words, string? Edited)> Changes(IReadOnlyList<CachedInput> files, IReadOnlyList<CachedListing> listings, string root) =>
        Changes(files, listings, root, null);

    /// <summary><see cref="Changes(IReadOnlyList{CachedInput}, IReadOnlyList{CachedListing}, string)"/>, each input as it is now noted in <paramref name="now"/>.</summary>
    public static List<(string Words, string? Edited)> Changes(IReadOnlyList<CachedInput> files, IReadOnlyList<CachedListing> listings, string root, Dictionary<string, CachedInput>? hashed)
    {
        var changes = new List<(string, string?)>();
        // Hashed on every core (most of it is the referenced assemblies' bytes), then compared in order.
        var current = new CachedInput[files.Count];
        Parallel.For(0, files.Count, new ParallelOptions { MaxDegreeOfParallelism = Environment.ProcessorCount }, i => current[i] = Of(files[i].Path));
        for (var i = 0; i < files.Count; i++)
        {
            var (recorded, now) = (files[i], current[i]);
            hashed?.TryAdd(recorded.Path, now);
            if (now.Size != recorded.Size || now.Sha256 != recorded.Sha256)
            {
                var name = Name(recorded.Path, root);
                changes.Add(recorded.Size < 0 ? ($"{name} appeared", null) : now.Size < 0 ? ($"{name} was deleted", null) : ($"{name} changed", recorded.Path));
            }
        }
        foreach (var recorded in listings)
        {
            var now = ListingOf(recorded.Folder);
            if (now.Sha256 != recorded.Sha256)
            {
                var delta = now.Files - recorded.Files;
                var what = delta > 0 ? $"{delta} file(s) added" : delta < 0 ? $"{-delta} file(s) deleted" : "a file renamed";
                changes.Add(($"{what} under {Name(recorded.Folder, root)}", null));
            }
        }
        return changes;
    }

    private static string Name(string path, string root)
    {
        var relative = Path.GetRelativePath(root, path);
        return relative == "." ? "the scanned folder" : relative.StartsWith("..", StringComparison.Ordinal) ? path : relative.Replace('\\', '/');
    }

    /// <summary>
    /// Whether <paramref name="input"/> was written after <paramref name="startedUtc"/>, while the scan that read it ran,
    /// so the scan may or may not have its contents. What MSBuild's design-time build writes under <c>obj/</c> during
    /// the load (assembly attributes, global usings) is its product, not an edit.
    /// </summary>
    internal static bool WrittenDuring(CachedInput input, DateTime startedUtc) =>
        input.ModifiedTicks >= startedUtc.Ticks && !input.Path.Contains(Path.DirectorySeparatorChar + "obj" + Path.DirectorySeparatorChar, StringComparison.Ordinal);

    // The size and time a hash was taken at are the file's still.
    private static bool Unchanged(string path, CachedInput known)
    {
        var info = new FileInfo(path);
        return info.Exists && info.Length == known.Size && info.LastWriteTimeUtc.Ticks == known.ModifiedTicks && (info.Attributes & FileAttributes.ReparsePoint) == 0;
    }

    internal static CachedInput Of(string path)
    {
        try
        {
            var info = new FileInfo(path);
            if (!info.Exists)
            {
                return new CachedInput(path, -1, 0, "");
            }
            // The one bounded opener: a FIFO or a device named by a hostile cache is refused, never waited on.
            using var stream = InputFile.Open(path, "an input of the cached scan");
            return new CachedInput(path, stream.Length, info.LastWriteTimeUtc.Ticks, Convert.ToHexStringLower(SHA256.HashData(stream)));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or TplabException)
        {
            // Unreadable now: recorded as absent, so a cache that saw it differently is stale.
            return new CachedInput(path, -1, 0, "");
        }
    }

    internal static CachedListing ListingOf(string folder)
    {
        var names = Directory.Exists(folder) ? Listed(folder).Select(f => Path.GetRelativePath(folder, f).Replace('\\', '/')).Order(StringComparer.Ordinal).ToList() : [];
        var hash = SHA256.HashData(Encoding.UTF8.GetBytes(string.Join('\n', names)));
        return new CachedListing(folder, names.Count, Convert.ToHexStringLower(hash));
    }

    private static IEnumerable<string> Listed(string folder) =>
        Folders(folder).SelectMany(current =>
        {
            try
            {
                return [.. Directory.EnumerateFiles(current)];
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                return Array.Empty<string>();
            }
        }).Where(file => ListedExtensions.Contains(Path.GetExtension(file), StringComparer.OrdinalIgnoreCase) || ListedNames.Contains(Path.GetFileName(file), StringComparer.OrdinalIgnoreCase));

    /// <summary>
    /// <paramref name="folder"/> and every folder below it a listing walks: hidden folders, build output and
    /// <c>node_modules</c> left out, a symbolic link to a folder not followed (a cycle).
    /// </summary>
    internal static IEnumerable<string> Folders(string folder)
    {
        var pending = new Stack<string>([folder]);
        while (pending.Count > 0)
        {
            var current = pending.Pop();
            IEnumerable<string> subfolders;
            try
            {
                subfolders = [.. Directory.EnumerateDirectories(current)];
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                continue;
            }
            yield return current;
            foreach (var sub in subfolders)
            {
                var name = Path.GetFileName(sub);
                if (!name.StartsWith('.') && !SkippedFolders.Contains(name, StringComparer.OrdinalIgnoreCase) && new DirectoryInfo(sub).LinkTarget is null)
                {
                    pending.Push(sub);
                }
            }
        }
    }
}
