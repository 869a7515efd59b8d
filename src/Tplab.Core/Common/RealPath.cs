namespace Tplab.Common;

/// <summary>
/// A path with every symbolic link on its way resolved (each folder and the file itself), <c>.</c> and <c>..</c>
/// applied after the link they follow, as the kernel does: the file a write through the path would really change. The
/// part that does not exist yet is kept as written.
/// </summary>
public static class RealPath
{
    // The kernel's own bound on links followed in one lookup (ELOOP).
    private const int MaxLinks = 40;

    /// <summary>The resolved full path of <paramref name="path"/>; a usage error when its links loop.</summary>
    public static string Of(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        var rest = new Stack<string>(Parts(Path.GetFullPath(path)).Reverse());
        var current = Path.GetPathRoot(Path.GetFullPath(path)) ?? "/";
        var links = 0;
        var exists = true;
        while (rest.TryPop(out var name))
        {
            if (name == ".")
            {
                continue;
            }
            if (name == "..")
            {
                current = Path.GetDirectoryName(current.TrimEnd('/')) is { Length: > 0 } up ? up : current;
                continue;
            }
            var next = Path.Combine(current, name);
            if (exists && new FileInfo(next).LinkTarget is { } target)
            {
                if (++links > MaxLinks)
                {
                    throw TplabException.Usage($"{path}: too many symbolic links on the way (a loop)");
                }
                foreach (var part in Parts(target).Reverse())
                {
                    rest.Push(part);
                }
                if (Path.IsPathRooted(target))
                {
                    current = Path.GetPathRoot(target) ?? "/";
                }
                continue;
            }
            exists = exists && (File.Exists(next) || Directory.Exists(next));
            current = next;
        }
        return current;
    }

    /// <summary>Whether <paramref name="path"/> (resolved) is <paramref name="folder"/> (resolved) or lies under it.</summary>
    public static bool IsUnder(string path, string folder)
    {
        var p = Of(path);
        var f = Of(folder).TrimEnd('/');
        return string.Equals(p, f, StringComparison.Ordinal) || p.StartsWith(f + "/", StringComparison.Ordinal) || f.Length == 0;
    }

    private static IEnumerable<string> Parts(string path) => path.Split('/', StringSplitOptions.RemoveEmptyEntries);
}
