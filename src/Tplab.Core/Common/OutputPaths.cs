namespace Tplab.Common;

/// <summary>
/// The files and folders a command will write, checked before its work (docs/exit-codes.md): a folder where a file is
/// expected and a file where a folder is expected are each said in those words (exit 8, like a missing folder); an
/// output that is one of the command's inputs (the project scanned or one of its sources, the baseline read, a trace
/// read) or the same file as another output is a usage error (exit 2): it would be replaced, or lose to the other.
/// Two names of one file (a symlink, a hard link, <c>./x</c>) are the same file.
/// </summary>
public static class OutputPaths
{
    /// <summary>The extensions a project's build or compiler reads: writing a report over one destroys source.</summary>
    private static readonly string[] SourceExtensions =
        [".cs", ".csproj", ".sln", ".slnx", ".slnf", ".props", ".targets", ".vb", ".vbproj", ".fs", ".fsproj", ".razor", ".cshtml", ".resx", ".config"];

    /// <summary>An output file of <paramref name="option"/>: not a folder, in a folder that exists.</summary>
    public static void CheckFile(string option, string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (path.Length == 0)
        {
            throw TplabException.Usage($"{option}: the path is empty; name a file");
        }
        if (Directory.Exists(path))
        {
            throw new TplabException(ExitCodes.OutputFailed, $"cannot write {option} {path}: it is a folder, not a file");
        }
        var folder = Path.GetDirectoryName(Path.GetFullPath(path));
        if (folder is not null && !Directory.Exists(folder))
        {
            throw new TplabException(ExitCodes.OutputFailed, FileInTheWay(folder) is { } file
                ? $"cannot write {option} {path}: {file} is a file, not a folder"
                : $"cannot write {option} {path}: the folder {folder} does not exist");
        }
    }

    /// <summary>An output folder of <paramref name="option"/> (created if missing): no file where it or a folder above it should be.</summary>
    public static void CheckFolder(string option, string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (path.Length == 0)
        {
            throw TplabException.Usage($"{option}: the path is empty; name a folder");
        }
        if (FileInTheWay(Path.GetFullPath(path)) is { } file)
        {
            throw new TplabException(ExitCodes.OutputFailed, file == Path.GetFullPath(path).TrimEnd('/')
                ? $"cannot write {option} {path}: it is a file, not a folder"
                : $"cannot write {option} {path}: {file} is a file, not a folder");
        }
    }

    /// <summary>Every output against every input and every other output (see the type's summary).</summary>
    /// <param name="outputs">(option, path) of each file written.</param>
    /// <param name="inputs">(what, path) of each file read; a project (file or folder) also protects the sources under it.</param>
    /// <param name="projects">the paths (file or folder) of the projects read, whose source files are inputs too.</param>
    public static void Check(IReadOnlyList<(string Option, string Path)> outputs, IReadOnlyList<(string What, string Path)> inputs, IReadOnlyList<string> projects)
    {
        ArgumentNullException.ThrowIfNull(outputs);
        ArgumentNullException.ThrowIfNull(inputs);
        ArgumentNullException.ThrowIfNull(projects);
        for (var i = 0; i < outputs.Count; i++)
        {
            var (option, path) = outputs[i];
            CheckFile(option, path);
            foreach (var (what, input) in inputs)
            {
                if (SameFile(path, input))
                {
                    throw TplabException.Usage($"{option} {path} is {what}: writing it would replace what is read; name another file");
                }
            }
            foreach (var project in projects)
            {
                if (SameFile(path, project) || IsSourceUnder(path, project))
                {
                    throw TplabException.Usage($"{option} {path} is a source file of the project read ({project}): writing it would replace the source; name another file");
                }
            }
            for (var j = 0; j < i; j++)
            {
                if (SameFile(path, outputs[j].Path))
                {
                    throw TplabException.Usage($"{outputs[j].Option} and {option} name the same file {path}: one would replace the other; give each its own file");
                }
            }
        }
    }

    /// <summary>Whether two paths name one file: the same full path, or the same device and inode.</summary>
    public static bool SameFile(string a, string b)
    {
        var fullA = Path.GetFullPath(a);
        var fullB = Path.GetFullPath(b);
        if (string.Equals(fullA, fullB, StringComparison.Ordinal))
        {
            return true;
        }
        if (FileKind.Identity(fullA) is { } ia && FileKind.Identity(fullB) is { } ib)
        {
            return ia == ib;
        }
        // One does not exist yet: the same name in the same folder (reached by different paths) is the same file.
        return string.Equals(Path.GetFileName(fullA), Path.GetFileName(fullB), StringComparison.Ordinal)
            && Path.GetDirectoryName(fullA) is { } da && Path.GetDirectoryName(fullB) is { } db
            && FileKind.Identity(da) is { } fa && FileKind.Identity(db) is { } fb && fa == fb;
    }

    private static bool IsSourceUnder(string output, string project)
    {
        if (!File.Exists(output) || !SourceExtensions.Contains(Path.GetExtension(output), StringComparer.OrdinalIgnoreCase))
        {
            return false;
        }
        var root = Directory.Exists(project) ? project : Path.GetDirectoryName(Path.GetFullPath(project));
        if (root is null)
        {
            return false;
        }
        var rootFull = Path.GetFullPath(root).TrimEnd('/') + "/";
        return Path.GetFullPath(output).StartsWith(rootFull, StringComparison.Ordinal);
    }

    // The first existing file on the way to the path (itself included), where a folder should be.
    private static string? FileInTheWay(string full)
    {
        for (var at = full.TrimEnd('/'); !string.IsNullOrEmpty(at); at = Path.GetDirectoryName(at))
        {
            if (File.Exists(at))
            {
                return at;
            }
            if (Directory.Exists(at))
            {
                return null;
            }
        }
        return null;
    }
}
