using Tplab.Scan.Loading;

namespace Tplab.Scan.Incremental;

/// <summary>
/// What <c>scan --watch</c> polls: the inputs a scan's load read and the listings of the folders whose globs pick up
/// sources, the same set the cache records (<see cref="CacheInputs"/>). A poll compares each input's size and write
/// time and the write time of each folder listed (a file added, deleted or renamed changes its folder's); only when
/// something moved are the contents and listings hashed (<see cref="Changes"/>), so a file saved unchanged, or
/// touched, is not a change.
/// </summary>
internal sealed class WatchedInputs
{
    private readonly List<CachedInput> _files;
    private readonly List<CachedListing> _listings;
    private readonly string _root;
    private Dictionary<string, (long Size, long Ticks)> _seen;
    private Dictionary<string, long> _folders;

    private WatchedInputs(List<CachedInput> files, List<CachedListing> listings, string root)
    {
        _files = files;
        _listings = listings;
        _root = root;
        _seen = Stat(files);
        _folders = FolderTimes(listings);
    }

    /// <summary>How many files are watched (the inputs, not the folders listed).</summary>
    public int Count => _files.Count(f => f.Size >= 0);

    /// <summary>
    /// The inputs of <paramref name="code"/>'s scan, with <paramref name="others"/> (the config path, read or not; the
    /// baseline); a file written after <paramref name="loadStartedUtc"/> may or may not be in what the load read, so it
    /// is recorded as unknown: a change at the first poll.
    /// </summary>
    public static WatchedInputs Record(LoadedCode code, IEnumerable<string> others, DateTime loadStartedUtc)
    {
        ArgumentNullException.ThrowIfNull(code);
        var (files, listings) = CacheInputs.Record(code, others);
        // The project files, props and targets under the watched folders whatever the load made of them: a project
        // MSBuild could not read (a project file half written) is not among the load's inputs, and its repair must be seen.
        var known = files.Select(f => f.Path).ToHashSet(StringComparer.Ordinal);
        files.AddRange(listings.SelectMany(l => CacheInputs.Folders(l.Folder)).Distinct(StringComparer.Ordinal).SelectMany(ProjectFiles)
            .Where(known.Add).Select(CacheInputs.Of));
        files = [.. files.Select(f => CacheInputs.WrittenDuring(f, loadStartedUtc) ? f with { Sha256 = "" } : f)];
        return new WatchedInputs(files, listings, code.Input.Root);
    }

    /// <summary>Whether an input's size or write time, or a folder's listing, is not what was last seen.</summary>
    public bool Moved()
    {
        foreach (var file in _files)
        {
            if (StatOf(file.Path) != _seen[file.Path])
            {
                return true;
            }
        }
        return _folders.Any(f => Directory.GetLastWriteTimeUtc(f.Key).Ticks != f.Value);
    }

    /// <summary>
    /// Every input whose contents are not the recorded ones, in words, with the path when only the contents of a file
    /// that was there changed (<see cref="CacheInputs.Changes"/>); the sizes and times seen now are kept, so a touch
    /// alone is not seen again.
    /// </summary>
    public List<(string Words, string? Edited)> Changes()
    {
        _seen = Stat(_files);
        _folders = FolderTimes(_listings);
        return CacheInputs.Changes(_files, _listings, _root);
    }

    /// <summary>The same inputs with <paramref name="edited"/> recorded as they are now (after a rescan that read them).</summary>
    public WatchedInputs With(IReadOnlyCollection<string> edited)
    {
        ArgumentNullException.ThrowIfNull(edited);
        var set = edited.ToHashSet(StringComparer.Ordinal);
        return new WatchedInputs([.. _files.Select(f => set.Contains(f.Path) ? CacheInputs.Of(f.Path) : f)], _listings, _root);
    }

    private static IEnumerable<string> ProjectFiles(string folder)
    {
        try
        {
            return [.. Directory.EnumerateFiles(folder).Where(f => Path.GetExtension(f).ToLowerInvariant() is ".csproj" or ".props" or ".targets")];
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }

    private static Dictionary<string, long> FolderTimes(List<CachedListing> listings) =>
        listings.SelectMany(l => CacheInputs.Folders(l.Folder)).Distinct(StringComparer.Ordinal)
            .ToDictionary(f => f, f => Directory.GetLastWriteTimeUtc(f).Ticks, StringComparer.Ordinal);

    private static (long Size, long Ticks) StatOf(string path)
    {
        var info = new FileInfo(path);
        return info.Exists ? (info.Length, info.LastWriteTimeUtc.Ticks) : (-1, 0);
    }

    private static Dictionary<string, (long Size, long Ticks)> Stat(List<CachedInput> files)
    {
        var seen = new Dictionary<string, (long, long)>(files.Count, StringComparer.Ordinal);
        foreach (var file in files)
        {
            seen[file.Path] = StatOf(file.Path);
        }
        return seen;
    }
}
