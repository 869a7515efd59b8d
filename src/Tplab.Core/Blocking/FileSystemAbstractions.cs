using System.Collections.Frozen;

namespace Tplab.Blocking;

/// <summary>
/// System.IO.Abstractions (<c>IFileSystem</c>: <c>fs.File.Delete</c>, <c>fs.Directory.GetFiles</c>,
/// <c>fs.FileStream.New</c>): its interfaces, their wrappers over System.IO and their abstract bases do the same
/// synchronous I/O as the System.IO types they stand for, so each takes that type's catalogue rows, with the same
/// verdicts and advice. One table: the rows are made from System.IO's, never copied.
/// </summary>
public static class FileSystemAbstractions
{
    private const string Namespace = "System.IO.Abstractions.";

    // The System.IO type, and what stands for it in System.IO.Abstractions.
    private static readonly (string Io, string[] Abstractions)[] Counterparts =
    [
        ("System.IO.File", ["IFile", "FileWrapper", "FileBase"]),
        ("System.IO.Directory", ["IDirectory", "DirectoryWrapper", "DirectoryBase"]),
        ("System.IO.FileInfo", ["IFileInfo", "FileInfoWrapper", "FileInfoBase"]),
        ("System.IO.DirectoryInfo", ["IDirectoryInfo", "DirectoryInfoWrapper", "DirectoryInfoBase"]),
    ];

    // new FileStream(...) is fs.FileStream.New(...) (Create before version 17): the factory opens the file.
    private static readonly string[] StreamFactories = ["IFileStreamFactory", "FileStreamFactory"];
    private static readonly FrozenSet<string> FactoryMethods = new[] { "New", "Create" }.ToFrozenSet(StringComparer.Ordinal);

    /// <summary>The rows of System.IO.Abstractions made from <paramref name="rows"/>, System.IO's among them.</summary>
    public static IEnumerable<BlockingCallCatalogue.Entry> RowsFor(IEnumerable<BlockingCallCatalogue.Entry> rows)
    {
        foreach (var row in rows)
        {
            foreach (var (io, abstractions) in Counterparts)
            {
                if (row.Type == io)
                {
                    foreach (var type in abstractions)
                    {
                        yield return row with { Type = Namespace + type };
                    }
                }
            }
            if (row.Type == "System.IO.FileStream" && row.Methods.Contains(".ctor"))
            {
                foreach (var factory in StreamFactories)
                {
                    // Named after the call as written (IFileStreamFactory.New), advised as opening a file is.
                    yield return row with { Type = Namespace + factory, Methods = FactoryMethods, Name = null };
                }
            }
        }
    }
}
