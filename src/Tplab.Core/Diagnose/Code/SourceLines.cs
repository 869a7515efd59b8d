using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using Tplab.Blocking;

namespace Tplab.Diagnose.Code;

/// <summary>A line of the application's source: the file as the PDB names it (mapped to this machine when found), relative to the source root, and the line.</summary>
/// <param name="Path">The file's full path on this machine, or the PDB's path when the file is not here.</param>
/// <param name="File">The file relative to the app's source root (<c>Clients/PriceClient.cs</c>), forward slashes.</param>
/// <param name="Line">1-based line.</param>
public sealed record SourceLine(string Path, string File, int Line)
{
    /// <summary><c>Clients/PriceClient.cs:42</c>.</summary>
    public override string ToString() => $"{File}:{Line.ToString(System.Globalization.CultureInfo.InvariantCulture)}";
}

/// <summary>
/// File and line of an IL offset, from the application's portable PDBs (beside the assembly, or embedded in it), read
/// with System.Reflection.Metadata. A PDB must match its assembly (the PDB id in the assembly's CodeView entry); one that
/// does not, or none, is said once in <see cref="Note"/> and that module's frames keep their names only. Paths are made
/// relative to the app's source root: the folder that holds all its projects' files, found from the documents the PDBs
/// list; deterministic builds' <c>/_/</c> paths are mapped back to the folder on this machine that holds those files.
/// </summary>
public sealed class SourceLines : IDisposable
{
    private readonly Dictionary<string, Pdb?> _pdbs = new(StringComparer.Ordinal);
    private readonly Dictionary<string, string?> _why = new(StringComparer.Ordinal);
    private readonly List<string> _notes = [];
    private readonly IReadOnlyList<string> _searchRoots;
    private readonly Dictionary<string, string?> _mapped = new(StringComparer.Ordinal);
    private string? _root;
    private bool _rootKnown;

    /// <summary>Reads PDBs of <paramref name="modulePaths"/> on demand; <paramref name="searchRoots"/> are folders where a deterministic build's sources may be (the current folder, the app's).</summary>
    public SourceLines(IEnumerable<string> modulePaths, IEnumerable<string>? searchRoots = null)
    {
        ArgumentNullException.ThrowIfNull(modulePaths);
        Modules = [.. modulePaths.Distinct(StringComparer.Ordinal)];
        var roots = new List<string>();
        foreach (var start in (searchRoots ?? [Environment.CurrentDirectory]).Concat(Modules.Select(System.IO.Path.GetDirectoryName).OfType<string>()))
        {
            for (var dir = start; !string.IsNullOrEmpty(dir); dir = System.IO.Path.GetDirectoryName(dir))
            {
                if (!roots.Contains(dir))
                {
                    roots.Add(dir);
                }
            }
        }
        _searchRoots = roots;
    }

    /// <summary>The application modules whose PDBs may be read.</summary>
    public IReadOnlyList<string> Modules { get; }

    /// <summary>What is missing, in one line (no PDB, or one that does not match its assembly), or null when every PDB used was read.</summary>
    public string? Note => _notes.Count == 0 ? null : "source lines: " + string.Join("; ", _notes) + "; those methods are named without file and line";

    /// <summary>The app's source root on this machine (or as the PDBs name it), or null when no PDB was read.</summary>
    public string? Root
    {
        get
        {
            if (!_rootKnown)
            {
                _rootKnown = true;
                _root = FindRoot();
            }
            return _root;
        }
    }

    /// <summary>The line of the sequence point holding <paramref name="site"/>'s IL offset, or null (no PDB, hidden code, a method without lines).</summary>
    public SourceLine? At(CodeSite site)
    {
        if (site.Offset < 0 || Open(site.ModulePath, noted: true) is not { } pdb || Info(pdb, site.Token) is not { } info)
        {
            return null;
        }
        SequencePoint? best = null;
        foreach (var point in info.GetSequencePoints())
        {
            if (point.Offset > site.Offset)
            {
                break;
            }
            if (!point.IsHidden)
            {
                best = point;
            }
        }
        if (best is not { } found)
        {
            return null;
        }
        var name = pdb.Reader.GetString(pdb.Reader.GetDocument(found.Document).Name);
        var local = Local(name) ?? name;
        return new SourceLine(local, Relative(local), found.StartLine);
    }

    /// <summary>The IL range of the statement (sequence point) holding <paramref name="site"/>'s offset, or null without a PDB.</summary>
    public (int Start, int End)? Span(CodeSite site)
    {
        if (site.Offset < 0 || Open(site.ModulePath, noted: false) is not { } pdb || Info(pdb, site.Token) is not { } info)
        {
            return null;
        }
        int? start = null;
        foreach (var point in info.GetSequencePoints())
        {
            if (point.Offset <= site.Offset)
            {
                start = point.Offset;
            }
            else if (start is not null)
            {
                return (start.Value, point.Offset);
            }
        }
        return start is { } s ? (s, int.MaxValue) : null;
    }

    private static MethodDebugInformation? Info(Pdb pdb, int token)
    {
        var handle = MetadataTokens.EntityHandle(token);
        if (handle.Kind != HandleKind.MethodDefinition || MetadataTokens.GetRowNumber(handle) > pdb.Reader.MethodDebugInformation.Count)
        {
            return null;
        }
        return pdb.Reader.GetMethodDebugInformation(((MethodDefinitionHandle)handle).ToDebugInformationHandle());
    }

    private Pdb? Open(string modulePath, bool noted)
    {
        var key = Modules.FirstOrDefault(m => m == modulePath)
            ?? Modules.FirstOrDefault(m => string.Equals(System.IO.Path.GetFileName(m), System.IO.Path.GetFileName(modulePath), StringComparison.OrdinalIgnoreCase))
            ?? modulePath;
        if (!_pdbs.TryGetValue(key, out var pdb))
        {
            var (read, why) = Read(key);
            _pdbs[key] = pdb = read;
            _why[key] = why;
        }
        // Only what was missing for a frame the report shows is worth a line.
        if (noted && _why.GetValueOrDefault(key) is { } note && !_notes.Contains(note))
        {
            _notes.Add(note);
        }
        return pdb;
    }

    private static (Pdb? Pdb, string? Why) Read(string modulePath)
    {
        var dll = System.IO.Path.GetFileName(modulePath);
        try
        {
            using var pe = new PEReader(File.OpenRead(modulePath));
            if (pe.TryOpenAssociatedPortablePdb(modulePath, path => File.Exists(path) ? File.OpenRead(path) : null, out var provider, out _) && provider is not null)
            {
                return (new Pdb(provider), null);
            }
            var beside = System.IO.Path.ChangeExtension(modulePath, ".pdb");
            return (null, File.Exists(beside)
                ? $"{System.IO.Path.GetFileName(beside)} does not match {dll} (an older build, or a Windows PDB: build with <DebugType>portable</DebugType> or embedded)"
                : $"no PDB for {dll} (none beside it, none embedded)");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or BadImageFormatException or InvalidOperationException)
        {
            return (null, $"the PDB of {dll} could not be read ({e.Message.ReplaceLineEndings(" ")})");
        }
    }

    // "/_/src/Api/Clients/PriceClient.cs" (a deterministic build) → the file under the folder here that holds "src/Api/...".
    private string? Local(string documentPath)
    {
        if (File.Exists(documentPath))
        {
            return documentPath;
        }
        var normalized = documentPath.Replace('\\', '/');
        if (!normalized.StartsWith("/_", StringComparison.Ordinal))
        {
            return null;
        }
        var slash = normalized.IndexOf('/', 2);
        if (slash < 0)
        {
            return null;
        }
        var prefix = normalized[..(slash + 1)];
        var rest = normalized[(slash + 1)..];
        if (!_mapped.TryGetValue(prefix, out var folder))
        {
            // The longest tail of the path that exists under a folder we know: "/_/" may be a repository above the project.
            folder = null;
            var parts = rest.Split('/');
            for (var skip = 0; skip < parts.Length - 1 && folder is null; skip++)
            {
                var tail = string.Join('/', parts.Skip(skip));
                var hit = _searchRoots.FirstOrDefault(r => File.Exists(System.IO.Path.Combine(r, tail)));
                if (hit is not null)
                {
                    folder = skip == 0 ? hit : System.IO.Path.GetFullPath(System.IO.Path.Combine(hit, string.Join('/', Enumerable.Repeat("..", skip))));
                }
            }
            _mapped[prefix] = folder;
        }
        return folder is null ? null : System.IO.Path.Combine(folder, rest);
    }

    private string Relative(string path)
    {
        var root = Root;
        if (root is not null && path.StartsWith(root.TrimEnd('/') + "/", StringComparison.Ordinal))
        {
            return path[(root.TrimEnd('/').Length + 1)..].Replace('\\', '/');
        }
        return path.Replace('\\', '/');
    }

    // The deepest folder holding every document of the app's PDBs (its projects' files, generated ones in obj/ included).
    private string? FindRoot()
    {
        string? common = null;
        foreach (var pdb in Modules.Select(m => Open(m, noted: false)).OfType<Pdb>())
        {
            foreach (var handle in pdb.Reader.Documents)
            {
                var name = pdb.Reader.GetString(pdb.Reader.GetDocument(handle).Name);
                if (!System.IO.Path.IsPathRooted(name))
                {
                    // Source generators' documents are named relative to nothing.
                    continue;
                }
                var local = (Local(name) ?? name).Replace('\\', '/');
                var folder = local[..(local.LastIndexOf('/') + 1)];
                common = common is null ? folder : CommonPrefix(common, folder);
            }
        }
        return common is null or "" or "/" ? null : common.TrimEnd('/');
    }

    private static string CommonPrefix(string a, string b)
    {
        var length = 0;
        for (var i = 0; i < Math.Min(a.Length, b.Length) && a[i] == b[i]; i++)
        {
            if (a[i] == '/')
            {
                length = i + 1;
            }
        }
        return a[..length];
    }

    public void Dispose()
    {
        foreach (var pdb in _pdbs.Values.OfType<Pdb>())
        {
            pdb.Provider.Dispose();
        }
    }

    private sealed class Pdb(MetadataReaderProvider provider)
    {
        public MetadataReaderProvider Provider { get; } = provider;

        public MetadataReader Reader { get; } = provider.GetMetadataReader();
    }
}
