using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Scan.Fix.Applying;

/// <summary>
/// The one rule for where <c>tplab fix</c> writes (docs/fix.md, "Where fix writes"): every file of the fix is resolved
/// (symbolic links in its folders and itself, a source a project includes by absolute path) and must lie inside the
/// tree the user named — the git work tree that holds PATH, else PATH's folder — whatever <c>--force</c> says. With
/// <c>--apply</c> each file must also be tracked and clean in its own git (the repository its real folder is in), or
/// the write is refused unless <c>--force</c>: a file git does not know, or no git at all, is not "nothing to
/// protect". The patch names the same real paths, relative to the tree, so it never holds <c>../</c>. A symlinked
/// source is written through: the link stays, its in-tree target changes.
/// </summary>
public static class ApplyScope
{
    /// <summary>The folder fix may write in, resolved: the top of the git work tree holding <paramref name="named"/>, else its folder.</summary>
    public static async Task<string> TreeAsync(string named, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrEmpty(named);
        var folder = RealPath.Of(Directory.Exists(named) ? named : Path.GetDirectoryName(Path.GetFullPath(named)) ?? ".");
        return Directory.Exists(folder) ? await GitTopAsync(folder, cancellationToken).ConfigureAwait(false) ?? folder : folder;
    }

    /// <summary>
    /// <paramref name="files"/> with each path resolved to the file a write really changes; a usage error naming the
    /// first that lies outside <paramref name="tree"/> (nothing is changed).
    /// </summary>
    public static IReadOnlyList<FileChange> Contained(string tree, IReadOnlyList<FileChange> files)
    {
        ArgumentNullException.ThrowIfNull(files);
        var resolved = new List<FileChange>(files.Count);
        foreach (var f in files)
        {
            var real = RealPath.Of(f.Path);
            if (!RealPath.IsUnder(real, tree))
            {
                throw TplabException.Usage(
                    $"{f.Relative} is {real}, outside {tree} (through a symbolic link or a project's include): tplab fix writes only inside the repository or folder named; nothing was changed");
            }
            resolved.Add(f with { Path = real });
        }
        return resolved;
    }

    /// <summary>The path the patch names <paramref name="file"/> by (resolved, relative to <paramref name="tree"/>, '/' separated).</summary>
    public static string PatchPath(string tree, string file) => Path.GetRelativePath(tree, RealPath.Of(file)).Replace('\\', '/');

    /// <summary>
    /// Refuses the write (usage error, nothing changed) when a file is not tracked and clean in the git work tree its
    /// real folder is in, or is in none: without git, tplab cannot tell the user's unsaved work from its own change.
    /// </summary>
    public static async Task CheckCleanAsync(IReadOnlyList<FileChange> resolved, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(resolved);
        var tops = new Dictionary<string, string?>(StringComparer.Ordinal);
        foreach (var folder in resolved.Select(f => Path.GetDirectoryName(f.Path)!).Distinct(StringComparer.Ordinal))
        {
            tops[folder] = await GitTopAsync(folder, cancellationToken).ConfigureAwait(false);
        }
        if (resolved.FirstOrDefault(f => tops[Path.GetDirectoryName(f.Path)!] is null) is { } loose)
        {
            throw TplabException.Usage($"{loose.Relative} is not in a git work tree: tplab cannot tell unsaved work from its own change; commit it to git first, or pass --force; nothing was changed");
        }
        foreach (var group in resolved.GroupBy(f => tops[Path.GetDirectoryName(f.Path)!]!, StringComparer.Ordinal))
        {
            var (code, lines) = await GitQuery.RunAsync(group.Key, ["status", "--porcelain", "--ignored=matching", "--untracked-files=all", "--", .. group.Select(f => f.Path)], cancellationToken).ConfigureAwait(false);
            if (code != 0)
            {
                throw TplabException.Usage($"git status failed in {group.Key} (exit {code?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "none"}), so uncommitted changes cannot be ruled out: pass --force to write anyway; nothing was changed");
            }
            var status = lines.Where(l => l.Length > 3 && l[2] == ' ').ToList();
            if (status.Count > 0)
            {
                var first = status[0];
                var what = first[..2] switch
                {
                    "??" => "is not tracked by git",
                    "!!" => "is ignored by git",
                    _ => "has uncommitted changes",
                };
                var name = TerminalText.Escape(first[3..].Trim().Trim('"'));
                throw TplabException.Usage($"{name}{(status.Count > 1 ? $" (and {status.Count - 1} more)" : "")} {what}: commit or stash first, or pass --force; nothing was changed");
            }
        }
    }

    // The resolved top of the git work tree holding the folder; null outside one or without git.
    private static async Task<string?> GitTopAsync(string folder, CancellationToken cancellationToken)
    {
        var (code, lines) = await GitQuery.RunAsync(folder, ["rev-parse", "--show-toplevel"], cancellationToken).ConfigureAwait(false);
        return code == 0 && lines.FirstOrDefault(l => l.StartsWith('/')) is { } top ? RealPath.Of(top) : null;
    }
}
