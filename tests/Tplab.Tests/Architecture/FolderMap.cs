using System.Text.RegularExpressions;

namespace Tplab.Tests.Architecture;

/// <summary>
/// The order of folders ARCHITECTURE.md states for one project: its table's rows from the bottom of the stack up
/// (a row may use the rows above it, never those below), and in each row the subfolders it names in backticks, in
/// the order they may use each other. Read from the Markdown, so the document and the test cannot disagree.
/// </summary>
internal sealed partial class FolderMap
{
    private readonly Dictionary<string, int> _folders = new(StringComparer.Ordinal);
    private readonly Dictionary<(string Folder, string Sub), int> _subs = [];

    private FolderMap(string project, string rootNamespace)
    {
        Project = project;
        RootNamespace = rootNamespace;
    }

    /// <summary>The project's folder under src/, e.g. <c>Tplab.Core</c>.</summary>
    public string Project { get; }

    /// <summary>The namespace its folders hang under: <c>Tplab</c> for Tplab.Core (Tplab.Watch), <c>Tplab.Scan</c> for Tplab.Scan.</summary>
    public string RootNamespace { get; }

    /// <summary>The folders in their stated order.</summary>
    public IReadOnlyList<string> Folders => [.. _folders.OrderBy(f => f.Value).Select(f => f.Key)];

    /// <summary>The subfolders stated for <paramref name="folder"/>, in order.</summary>
    public IReadOnlyList<string> SubfoldersOf(string folder) =>
        [.. _subs.Where(s => s.Key.Folder == folder).OrderBy(s => s.Value).Select(s => s.Key.Sub)];

    /// <summary>Reads the table under the heading <c>## src/PROJECT, folder by folder</c>.</summary>
    public static FolderMap Read(string markdown, string project, string rootNamespace)
    {
        var map = new FolderMap(project, rootNamespace);
        var inTable = false;
        foreach (var line in markdown.Split('\n'))
        {
            if (line.StartsWith("## ", StringComparison.Ordinal))
            {
                inTable = line.StartsWith($"## src/{project}, folder by folder", StringComparison.Ordinal);
                continue;
            }
            if (!inTable || !line.StartsWith("| `", StringComparison.Ordinal))
            {
                continue;
            }
            var cells = line.Split('|', StringSplitOptions.TrimEntries);
            foreach (Match folder in Folder().Matches(cells[1]))
            {
                map._folders.TryAdd(folder.Groups[1].Value, map._folders.Count);
                var index = 0;
                foreach (Match sub in Folder().Matches(cells[2]))
                {
                    map._subs.TryAdd((folder.Groups[1].Value, sub.Groups[1].Value), index++);
                }
            }
        }
        return map;
    }

    /// <summary>
    /// Whether code in <paramref name="from"/> may use <paramref name="to"/> (each a folder and its subfolder, or null
    /// for the folder's own root): a folder uses those stated above it; inside a folder, a subfolder uses those
    /// stated before it, and the folder's root (its entry points and shared records) and its subfolders use each
    /// other. Unstated places are never allowed (the listing test names them).
    /// </summary>
    public bool Allows((string Folder, string? Sub) from, (string Folder, string? Sub) to)
    {
        if (!_folders.TryGetValue(from.Folder, out var a) || !_folders.TryGetValue(to.Folder, out var b))
        {
            return false;
        }
        if (a != b)
        {
            return b < a;
        }
        if (from.Sub is null || to.Sub is null || from.Sub == to.Sub)
        {
            return true;
        }
        return _subs.TryGetValue((from.Folder, from.Sub), out var i) && _subs.TryGetValue((to.Folder, to.Sub), out var j) && j < i;
    }

    [GeneratedRegex(@"`([A-Z][A-Za-z0-9]*)/`")]
    private static partial Regex Folder();
}
