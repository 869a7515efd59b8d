using Tplab.Blocking;
using Tplab.Diagnose.Stacks;
using Tplab.Scan.Findings;
using static Tplab.Tests.Diagnose.Stacks;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Rules;

/// <summary>
/// The catalogue rows where real apps block beyond the classic calls (file opens, directory listings, a hash over a
/// stream, XML loaded from a path, LibGit2Sharp, logging flushes, EF Core's RemoveRange over a query, a query joined
/// in memory), and the shapes beside them that do not block (a file opened for async I/O, XML or a resource in memory).
/// </summary>
[ParallelSafe]
public sealed class CatalogueRowsTests
{
    private const string Ef = "using Microsoft.EntityFrameworkCore; public sealed class Order { public int Id; public bool Old; } public sealed class Line { public int OrderId; } public sealed class Shop : DbContext { public DbSet<Order> Orders { get; } = null!; public DbSet<Line> Lines { get; } = null!; } ";

    private const string Fs = "using System.IO.Abstractions; ";

    public static TheoryData<string, string, string?, Severity?> Cases => new()
    {
        // Files: opening and listing.
        { "new file stream", "public static class Root { public static long Handle() { using var f = new FileStream(\"a\", FileMode.Open); return f.Length; } }", "new FileStream", Severity.Error },
        { "file open read", "public static class Root { public static long Handle() { using var f = File.OpenRead(\"a\"); return f.Length; } }", "File.OpenRead", Severity.Error },
        { "file create text", "public static class Root { public static void Handle() { using var w = Store.Writer(\"a\"); } } public static class Store { public static StreamWriter Writer(string p) => File.CreateText(p); }", "File.CreateText", Severity.Error },
        { "file info open", "public static class Root { public static long Handle() { using var f = new FileInfo(\"a\").OpenRead(); return f.Length; } }", "FileInfo.OpenRead", Severity.Error },
        { "directory get files", "public static class Root { public static int Handle() => Directory.GetFiles(\"/data\").Length; }", "Directory.GetFiles", Severity.Error },
        { "directory enumerate through a helper", "public static class Root { public static int Handle() => Folders.Names(\"/data\").Count; } public static class Folders { public static List<string> Names(string p) => Directory.EnumerateDirectories(p).ToList(); }", "Directory.EnumerateDirectories", Severity.Error },
        { "directory info files", "public static class Root { public static int Handle() => new DirectoryInfo(\"/data\").GetFiles(\"*.csv\").Length; }", "DirectoryInfo.GetFiles", Severity.Error },
        // Files: deleting, moving, copying; an upload copied synchronously.
        { "file delete through a helper", "public static class Root { public static void Handle(string name) => Thumbs.Clear(name); } public static class Thumbs { public static void Clear(string name) { var path = Path.Combine(\"/thumbs\", name); if (File.Exists(path)) { File.Delete(path); } } }", "File.Delete", Severity.Warning },
        { "file info delete", "public static class Root { public static void Handle() { var f = new FileInfo(\"a\"); f.Delete(); } }", "FileInfo.Delete", Severity.Error },
        { "file move", "public static class Root { public static void Handle() => File.Move(\"a.tmp\", \"a\", overwrite: true); }", "File.Move", Severity.Error },
        { "file copy", "public static class Root { public static void Handle() => File.Copy(\"a\", \"b\"); }", "File.Copy", Severity.Error },
        { "directory delete", "public static class Root { public static void Handle() => Directory.Delete(\"/cache\", recursive: true); }", "Directory.Delete", Severity.Error },
        { "upload copied synchronously", "public static class Root { public static void Handle(Microsoft.AspNetCore.Http.IFormFile upload) { using var target = new MemoryStream(); Uploads.Save(upload, target); } } public static class Uploads { public static void Save(Microsoft.AspNetCore.Http.IFormFile file, Stream target) => file.CopyTo(target); }", "IFormFile.CopyTo", Severity.Error },
        { "upload copied with await", "public static class Root { public static async Task Handle(Microsoft.AspNetCore.Http.IFormFile upload) { using var target = new MemoryStream(); await upload.CopyToAsync(target); } }", null, null },
        // A file opened for asynchronous I/O is the form the open's advice asks for: its open is not reported.
        { "file stream opened for async", "public static class Root { public static async Task Handle(byte[] data) { await using var f = new FileStream(\"a\", FileMode.Create, FileAccess.Write, FileShare.None, 4096, useAsync: true); await f.WriteAsync(data); } }", null, null },
        { "file options asynchronous", "public static class Root { public static async Task<int> Handle(byte[] buffer) { await using var f = new FileStream(\"a\", FileMode.Open, FileAccess.Read, FileShare.Read, 4096, FileOptions.Asynchronous | FileOptions.SequentialScan); return await f.ReadAsync(buffer); } }", null, null },
        { "file stream options asynchronous", "public static class Root { public static async Task<int> Handle(byte[] buffer) { var options = new FileStreamOptions { Mode = FileMode.Open, Options = FileOptions.Asynchronous }; await using var f = File.Open(\"a\", options); return await f.ReadAsync(buffer); } }", null, null },
        { "file stream opened for sync", "public static class Root { public static async Task Handle(byte[] data) { await using var f = new FileStream(\"a\", FileMode.Create, FileAccess.Write, FileShare.None, 4096, useAsync: false); await f.WriteAsync(data); } }", "new FileStream", Severity.Error },
        { "file exists is metadata", "public static class Root { public static bool Handle() => File.Exists(\"a\") && Directory.Exists(\"b\"); }", null, null },
        { "path work is memory", "public static class Root { public static string Handle() => Path.Combine(\"a\", Path.GetFileName(\"b/c\")); }", null, null },
        // System.IO.Abstractions: the same rows as the System.IO types each interface stands for.
        { "abstractions directory listing", Fs + "public sealed class SegmentStore(IFileSystem fs) { public int Count(string folder) => fs.Directory.GetFiles(folder, \"*.ts\").Length; } public static class Root { public static int Handle(IFileSystem fs) => new SegmentStore(fs).Count(\"/segments\"); }", "IDirectory.GetFiles", Severity.Error },
        { "abstractions directory enumeration", Fs + "public static class Root { public static List<string> Handle(IFileSystem fs) => fs.Directory.EnumerateFiles(\"/logs\", \"*.log\", SearchOption.TopDirectoryOnly).ToList(); }", "IDirectory.EnumerateFiles", Severity.Error },
        { "abstractions file delete", Fs + "public sealed class Cleaner(IFileSystem fileSystem) { public void Remove(string path) => fileSystem.File.Delete(path); } public static class Root { public static void Handle(IFileSystem fs) => new Cleaner(fs).Remove(\"/tmp/a.ts\"); }", "IFile.Delete", Severity.Error },
        { "abstractions file stream factory", Fs + "public static class Root { public static async Task<int> Handle(IFileSystem fs) { await using var s = fs.FileStream.New(\"guide.xml\", FileMode.Open, FileAccess.Read, FileShare.Read, 4096, true); return await s.ReadAsync(new byte[16]); } }", "IFileStreamFactory.New", Severity.Error },
        { "abstractions file info open", Fs + "public static class Root { public static long Handle(IFileSystem fs) { using var s = fs.FileInfo.New(\"a\").OpenRead(); return s.Length; } }", "IFileInfo.OpenRead", Severity.Error },
        { "abstractions directory info listing", Fs + "public static class Root { public static int Handle(IFileSystem fs) => fs.DirectoryInfo.New(\"/data\").EnumerateFiles(\"*.csv\").Count(); }", "IDirectoryInfo.EnumerateFiles", Severity.Error },
        { "abstractions read lines", Fs + "public static class Root { public static int Handle(IFileSystem fs) => fs.File.ReadLines(\"a.log\").Count(); }", "IFile.ReadLines", Severity.Error },
        { "abstractions metadata and async reads", Fs + "public static class Root { public static async Task<string> Handle(IFileSystem fs) => fs.File.Exists(\"a\") && fs.Directory.Exists(\"b\") ? await fs.File.ReadAllTextAsync(\"a\") : \"\"; }", null, null },
        // A distributed cache's synchronous calls wait for its store; the async ones do not.
        { "distributed cache get string", "using Microsoft.Extensions.Caching.Distributed; public sealed class Tickets(IDistributedCache cache) { public string? Find(string key) => cache.GetString(key); } public static class Root { public static string? Handle(IDistributedCache c) => new Tickets(c).Find(\"k\"); }", "DistributedCacheExtensions.GetString", Severity.Error },
        { "distributed cache remove", "using Microsoft.Extensions.Caching.Distributed; public static class Root { public static void Handle(IDistributedCache c) => c.Remove(\"k\"); }", "IDistributedCache.Remove", Severity.Error },
        { "distributed cache awaited", "using Microsoft.Extensions.Caching.Distributed; public static class Root { public static async Task<string?> Handle(IDistributedCache c) { await c.RemoveAsync(\"a\"); return await c.GetStringAsync(\"k\"); } }", null, null },
        // Hashes: over a stream they read it; over bytes or memory they compute.
        { "hash over a file", "public static class Root { public static byte[] Handle(FileStream upload) { using var sha = System.Security.Cryptography.SHA256.Create(); return Hash(sha, upload); } static byte[] Hash(System.Security.Cryptography.HashAlgorithm h, Stream s) => h.ComputeHash(s); }", "HashAlgorithm.ComputeHash", Severity.Error },
        { "hash over bytes", "public static class Root { public static byte[] Handle(byte[] data) { using var sha = System.Security.Cryptography.SHA256.Create(); return sha.ComputeHash(data); } }", null, null },
        { "hash over memory", "public static class Root { public static byte[] Handle(byte[] data) { using var sha = System.Security.Cryptography.SHA256.Create(); return sha.ComputeHash(new MemoryStream(data)); } }", null, null },
        // XML loaded whole: from a path a file read; over memory, parsing only.
        { "xml document loaded from a path", "public static class Root { public static int Handle(string path) { var d = new System.Xml.XmlDocument(); d.Load(path); return d.ChildNodes.Count; } }", "XmlDocument.Load", Severity.Error },
        { "xdocument loaded through a helper", "public static class Root { public static string Handle(string path) => Project.Version(path); } public static class Project { public static string Version(string file) => System.Xml.Linq.XDocument.Load(file).Root!.Name.LocalName; }", "XDocument.Load", Severity.Error },
        { "xdocument loaded over memory", "public static class Root { public static string Handle(byte[] xml) => System.Xml.Linq.XDocument.Load(new MemoryStream(xml)).Root!.Name.LocalName; }", null, null },
        { "xml document parsed from a string", "public static class Root { public static int Handle(string xml) { var d = new System.Xml.XmlDocument(); d.LoadXml(xml); return d.ChildNodes.Count; } }", null, null },
        // An embedded resource read through the app's own helper is memory.
        { "manifest resource through a helper", "public static class Root { public static string Handle(string name) { using var reader = new StreamReader(Resources.Load(name)); return reader.ReadToEnd(); } } public static class Resources { public static Stream Load(string name) => typeof(Resources).Assembly.GetManifestResourceStream(name)!; }", null, null },
        // LibGit2Sharp: transfers and working-tree writes, synchronously; opening a repository is not reported.
        { "git pull", "public static class Root { public static void Handle(string path) { using var repo = new LibGit2Sharp.Repository(path); LibGit2Sharp.Commands.Pull(repo, new LibGit2Sharp.Signature(), new LibGit2Sharp.PullOptions()); } }", "Commands.Pull", Severity.Error },
        { "git push through a service", "public static class Root { public static void Handle(string path) => Git.Publish(path); } public static class Git { public static void Publish(string path) { using var repo = new LibGit2Sharp.Repository(path); repo.Network.Push(new LibGit2Sharp.Remote(), \"refs/heads/main\", new LibGit2Sharp.PushOptions()); } }", "Network.Push", Severity.Error },
        { "git commit", "using LibGit2Sharp; public static class Root { public static void Handle(IRepository repo) { var s = new Signature(); repo.Commit(\"message\", s, s); } }", "RepositoryExtensions.Commit", Severity.Error },
        { "git status", "public static class Root { public static int Handle(string path) { using var repo = new LibGit2Sharp.Repository(path); return repo.RetrieveStatus().GetHashCode(); } }", "Repository.RetrieveStatus", Severity.Error },
        { "git repository opened", "public static class Root { public static bool Handle(string path) { using var repo = new LibGit2Sharp.Repository(path); return repo.Network is not null; } }", null, null },
        // Logging frameworks' flush.
        { "nlog flush", "public static class Root { public static void Handle() => NLog.LogManager.Flush(); }", "LogManager.Flush", Severity.Error },
        { "serilog close and flush", "public static class Root { public static void Handle() => Serilog.Log.CloseAndFlush(); }", "Log.CloseAndFlush", Severity.Error },
        // EF Core: RemoveRange over a query enumerates it; over entities in hand it does not.
        { "remove range of a query", Ef + "public static class Root { public static void Handle(Shop db) => db.Orders.RemoveRange(db.Orders.Where(o => o.Old)); }", "DbSet.RemoveRange", Severity.Error },
        { "context remove range of a query", Ef + "public static class Root { public static void Handle(Shop db) => Purge(db); static void Purge(Shop db) { var old = db.Orders.Where(o => o.Old); db.RemoveRange(old); } }", "DbContext.RemoveRange", Severity.Error },
        { "remove range of a list", Ef + "public static class Root { public static void Handle(Shop db, List<Order> done) => db.Orders.RemoveRange(done); }", null, null },
        { "remove range of entities", Ef + "public static class Root { public static void Handle(Shop db, Order a, Order b) => db.Orders.RemoveRange(a, b); }", null, null },
        { "remove range after tolistasync", Ef + "public static class Root { public static async Task Handle(Shop db) { var old = await Fetch(db); db.Orders.RemoveRange(old); } static Task<List<Order>> Fetch(Shop db) => Task.FromResult(new List<Order>()); }", null, null },
        // A query as the inner sequence of an in-memory join is enumerated whole.
        { "join over a dbset", Ef + "public static class Root { public static int Handle(Shop db, List<Line> lines) => lines.Join(db.Orders, l => l.OrderId, o => o.Id, (l, o) => o).ToList().Count; }", "Enumerable.ToList", Severity.Error },
        { "query join over a dbset", Ef + "public static class Root { public static int Handle(Shop db, List<Line> lines) { var q = from l in lines join o in db.Orders on l.OrderId equals o.Id select o; var n = 0; foreach (var o in q) { n++; } return n; } }", "IQueryable foreach (EF Core)", Severity.Error },
        { "join in memory", Ef + "public static class Root { public static int Handle(List<Order> orders, List<Line> lines) => lines.Join(orders, l => l.OrderId, o => o.Id, (l, o) => o).ToList().Count; }", null, null },
        { "join over a materialised query", Ef + "public static class Root { public static int Handle(Shop db, List<Line> lines) { var orders = db.Orders.Where(o => o.Old).ToList(); return lines.Join(orders, l => l.OrderId, o => o.Id, (l, o) => o).Count(); } }", "Enumerable.ToList", Severity.Error },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Findings_CatalogueRow_ReportsTheCallOrNothing(string name, string code, string? blockingCall, Severity? severity)
    {
        var findings = Snippet.Findings(code, library: PackageFakes.Code);
        if (blockingCall is null)
        {
            Assert.True(findings.Count == 0, $"{name}: expected nothing, got {string.Join("; ", findings.Select(f => $"{f.Call.Name} ({f.Severity})"))}");
            return;
        }
        var finding = findings.FirstOrDefault(f => f.Call.Name == blockingCall);
        Assert.True(finding is not null, $"{name}: expected {blockingCall}, got {string.Join("; ", findings.Select(f => f.Call.Name))}");
        Assert.Equal(severity, finding.Severity);
        Assert.True(findings.Count == 1, $"{name}: one finding expected, got {string.Join("; ", findings.Select(f => f.Call.Name))}");
    }

    [Fact]
    public void Catalogue_NewRows_MatchTheFramesDiagnoseSees()
    {
        Assert.Equal("new FileStream", BlockingCallCatalogue.Match(new StackFrame("System.Private.CoreLib", "System.IO.FileStream", ".ctor"))?.Name);
        Assert.Equal("directory enumeration", BlockingCallCatalogue.Match(new StackFrame("System.Private.CoreLib", "System.IO.Enumeration.FileSystemEnumerator`1", "MoveNext"))?.Name);
        Assert.Equal("DbSet.RemoveRange", BlockingCallCatalogue.Match(new StackFrame("Microsoft.EntityFrameworkCore", "Microsoft.EntityFrameworkCore.Internal.InternalDbSet`1", "RemoveRange"))?.Name);
        Assert.Equal(BlockingKind.SyncWait, BlockingCallCatalogue.Match(new StackFrame("NLog", "NLog.LogManager", "Flush"))?.Kind);
        Assert.Equal(AsyncRewriteKind.None, BlockingCallCatalogue.RewriteFor(BlockingCallCatalogue.Match(new StackFrame("System.Private.CoreLib", "System.IO.Directory", "GetFiles"))!).Kind);
        Assert.Equal(AsyncRewriteKind.Sibling, BlockingCallCatalogue.RewriteFor(BlockingCallCatalogue.Match(new StackFrame("Serilog", "Serilog.Log", "CloseAndFlush"))!).Kind);
        Assert.Null(BlockingCallCatalogue.Match(new StackFrame("System.Private.CoreLib", "System.IO.File", "Exists")));
        Assert.Equal("File.Delete", BlockingCallCatalogue.Match(new StackFrame("System.Private.CoreLib", "System.IO.File", "Delete"))?.Name);
        // System.IO.Abstractions' wrappers take their System.IO counterpart's rows, advice included.
        var wrapped = BlockingCallCatalogue.Match(new StackFrame("TestableIO.System.IO.Abstractions.Wrappers", "System.IO.Abstractions.DirectoryWrapper", "GetFiles"));
        Assert.Equal("DirectoryWrapper.GetFiles", wrapped?.Name);
        Assert.Equal(BlockingCallCatalogue.ListingAdvice, BlockingCallCatalogue.RewriteFor(wrapped!).Advice);
        Assert.Equal(BlockingCallCatalogue.OpenAdvice, BlockingCallCatalogue.RewriteFor(BlockingCallCatalogue.Match(new StackFrame("TestableIO.System.IO.Abstractions.Wrappers", "System.IO.Abstractions.FileStreamFactory", "New"))!).Advice);
        Assert.Null(BlockingCallCatalogue.Match(new StackFrame("TestableIO.System.IO.Abstractions.Wrappers", "System.IO.Abstractions.FileWrapper", "Exists")));
        Assert.Equal(AsyncRewriteKind.None, BlockingCallCatalogue.RewriteFor(BlockingCallCatalogue.Match(new StackFrame("System.Private.CoreLib", "System.IO.FileInfo", "Delete"))!).Kind);
        Assert.Equal(AsyncRewriteKind.Sibling, BlockingCallCatalogue.RewriteFor(BlockingCallCatalogue.Match(new StackFrame("Microsoft.AspNetCore.Http", "Microsoft.AspNetCore.Http.FormFile", "CopyTo"))!).Kind);
        Assert.Equal(BlockingKind.SyncHttp, BlockingCallCatalogue.Match(new StackFrame("LibGit2Sharp", "LibGit2Sharp.Commands", "Fetch"))?.Kind);
        Assert.Equal(AsyncRewriteKind.None, BlockingCallCatalogue.RewriteFor(BlockingCallCatalogue.Match(new StackFrame("LibGit2Sharp", "LibGit2Sharp.Network", "Push"))!).Kind);
        Assert.True(BlockingCallCatalogue.OnlyAround(new StackFrame("System.Private.Xml", "System.Xml.XmlDocument", "Load")));
        // ComputeHash names a wait only around the stream read below it: a thread hashing a byte array is not blocked.
        Assert.True(BlockingCallCatalogue.OnlyAround(new StackFrame("System.Security.Cryptography", "System.Security.Cryptography.HashAlgorithm", "ComputeHash")));
        Assert.False(BlockingCallCatalogue.OnlyAround(new StackFrame("System.Private.CoreLib", "System.IO.FileStream", "Read")));
    }

    [Fact]
    public void Classify_ComputeHash_NamesTheHashAroundItsReadAndNothingWhileItOnlyComputes()
    {
        const string Hash = "System.Security.Cryptography!System.Security.Cryptography.HashAlgorithm.ComputeHash(class System.IO.Stream)";
        const string Read = "System.Private.CoreLib!System.IO.FileStream.Read(value class System.Span`1<unsigned int8>)";
        var classifier = new StackClassifier();

        var reading = classifier.Classify(Of(One(Read), One(Hash), One("App!Shop.Exports.Checksum()"), MvcAction, PoolBottom));
        var hashing = classifier.Classify(Of(One(Hash), One("App!Shop.Exports.Checksum()"), MvcAction, PoolBottom));

        Assert.Equal("HashAlgorithm.ComputeHash", reading?.Call.Name);
        Assert.Null(hashing);
    }
}
