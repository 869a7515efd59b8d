using System.Collections.Frozen;
namespace Tplab.Blocking;

/// <summary>
/// The known blocking calls, matched against frames. When several frames of one stack match (a sync Npgsql call
/// waits in <c>Socket.Receive</c>, which waits in <c>ManualResetEventSlim.Wait</c>, which waits in <c>Monitor.Wait</c>),
/// the outermost match, the one the application called, names the blocking call.
/// </summary>
public static class BlockingCallCatalogue
{
    /// <summary>
    /// One catalogue row: a type (exact open type name, or a namespace prefix ending in '.'), its blocking methods, a
    /// fixed name or null to name it after the frame, and how <c>tplab fix</c> rewrites it (null: the family's default,
    /// <see cref="AsyncRewrite.For(BlockingKind)"/>).
    /// </summary>
    public sealed record Entry(string Type, FrozenSet<string> Methods, BlockingKind Kind, string? Name = null, AsyncRewrite? Fix = null)
    {
        /// <summary>
        /// A call that blocks only in what it calls (<c>ComputeHash(Stream)</c> reads its stream; <c>ComputeHash(byte[])</c>
        /// only computes): on a stack it names the wait only around another row's frame, never alone.
        /// </summary>
        public bool Around { get; init; }

        /// <summary>How <c>tplab fix</c> rewrites a call of this row.</summary>
        public AsyncRewrite Rewrite => Fix ?? AsyncRewrite.For(Kind);

        public bool Matches(StackFrame frame) =>
            Methods.Contains(frame.MethodName)
            && (Type.EndsWith('.') ? frame.OpenTypeName.StartsWith(Type, StringComparison.Ordinal) : frame.OpenTypeName == Type);
    }

    private const string WaitHandleAdvice = "a WaitHandle has no async wait: use a TaskCompletionSource or SemaphoreSlim.WaitAsync, or ThreadPool.RegisterWaitForSingleObject wrapped in a task";
    private const string Awaiters = "GetResult|HandleNonSuccessAndDebuggerNotification";
    private const string DbCalls = AspNetVocabulary.SyncDatabaseCalls;
    private const string FileOpens = "Open|OpenRead|OpenWrite|OpenText|Create|CreateText|AppendText";

    /// <summary>What to do about opening a file, which has no async form.</summary>
    public const string OpenAdvice = "opening a file has no async form: open it with FileOptions.Asynchronous (or useAsync: true) and await its reads and writes, or keep file work on a path the load rarely takes";

    /// <summary>What to do about a directory listing, which has no async form.</summary>
    public const string ListingAdvice = "a directory listing has no async form: cache it (refreshed by a background service or a file watcher), or keep the listing off the request path";

    /// <summary>What to do about deleting, moving or copying a file, which have no async form.</summary>
    public const string FileChangeAdvice = "deleting, moving or replacing a file has no async form: hand it to a background queue (a Channel read by a hosted service), or copy through streams opened with FileOptions.Asynchronous and await CopyToAsync";

    /// <summary>What to do about NLog's synchronous flush.</summary>
    public const string NLogFlushAdvice = "do not flush per request: NLog writes on its own; flush once at shutdown, or await LogManager.LogFactory.FlushAsync(token) (NLog 5.5 and later)";

    /// <summary>What to do about XML loaded from a path.</summary>
    public const string XmlLoadAdvice = "loading XML from a path reads the file whole on the calling thread: open it with FileOptions.Asynchronous and await XDocument.LoadAsync(stream, LoadOptions.None, token) (XElement.LoadAsync likewise); XmlDocument has no async load: parse what an awaited read returned with LoadXml, or read through an XmlReader created with Async = true";

    /// <summary>What to do about LibGit2Sharp's synchronous calls.</summary>
    public const string GitAdvice = "LibGit2Sharp has no async API: its network transfers and working-tree writes run on the calling thread in native code; queue the git work to a background worker (a Channel drained by a hosted service, one repository at a time) and await its completion in the request, or run the git command line as a process awaited with WaitForExitAsync";

    /// <summary>What to do about EF Core's RemoveRange over a query.</summary>
    public const string RemoveRangeAdvice = "RemoveRange enumerates the query synchronously: await query.ExecuteDeleteAsync() (EF Core 7 and later, no tracking), or RemoveRange(await query.ToListAsync())";

    // The rows as written, in no particular order (matching picks the outermost frame, not the first entry).
    private static readonly IReadOnlyList<Entry> Rows =
    [
        E("System.Threading.Thread", "Sleep|SleepInternal", BlockingKind.Sleep, "Thread.Sleep", AsyncRewrite.Delay),
        E("System.Threading.Thread", "Join", BlockingKind.SyncWait, "Thread.Join",
            AsyncRewrite.None("a thread cannot be awaited: run the work as a Task (Task.Run or an async method) and await that task instead of joining the thread")),

        // Sync over async: the name says which form the developer wrote.
        E("System.Threading.Tasks.Task`1", "get_Result|GetResultCore", BlockingKind.SyncOverAsync, "Task.Result"),
        E("System.Threading.Tasks.Task", "Wait", BlockingKind.SyncOverAsync, "Task.Wait"),
        E("System.Threading.Tasks.Task", "WaitAll|WaitAllCore", BlockingKind.SyncOverAsync, "Task.WaitAll", AsyncRewrite.WhenAll),
        E("System.Threading.Tasks.Task", "WaitAny|WaitAnyCore", BlockingKind.SyncOverAsync, "Task.WaitAny", AsyncRewrite.WhenAny),
        E("System.Threading.Tasks.Task", "InternalWait|InternalWaitCore|SpinThenBlockingWait", BlockingKind.SyncOverAsync, "Task wait"),
        E("System.Runtime.CompilerServices.TaskAwaiter", Awaiters, BlockingKind.SyncOverAsync, "GetAwaiter().GetResult()"),
        E("System.Runtime.CompilerServices.TaskAwaiter`1", Awaiters, BlockingKind.SyncOverAsync, "GetAwaiter().GetResult()"),
        E("System.Runtime.CompilerServices.ConfiguredTaskAwaitable+ConfiguredTaskAwaiter", Awaiters, BlockingKind.SyncOverAsync, "GetAwaiter().GetResult()"),
        E("System.Runtime.CompilerServices.ConfiguredTaskAwaitable`1+ConfiguredTaskAwaiter", Awaiters, BlockingKind.SyncOverAsync, "GetAwaiter().GetResult()"),
        E("System.Runtime.CompilerServices.ValueTaskAwaiter`1", Awaiters, BlockingKind.SyncOverAsync, "GetAwaiter().GetResult()"),

        // At Tier 1 the JIT inlines Monitor.Enter's fast path into the caller: only Enter_Slowpath is left on the stack.
        E("System.Threading.Monitor", "Enter|ReliableEnter|TryEnter|ReliableEnterTimeout|EnterSlow|Enter_Slowpath|TryEnter_Slowpath", BlockingKind.Lock, "lock (Monitor.Enter)"),
        E("System.Threading.Lock", "Enter|EnterAndGetCurrentThreadId|TryEnterSlow|TryEnter|EnterScope", BlockingKind.Lock, "lock (Lock.Enter)"),
        E("System.Threading.ReaderWriterLockSlim", "EnterReadLock|EnterWriteLock|EnterUpgradeableReadLock|TryEnterReadLock|TryEnterWriteLock|TryEnterUpgradeableReadLock", BlockingKind.Lock),
        E("System.Threading.Monitor", "Wait|ObjWait", BlockingKind.SyncWait, "Monitor.Wait",
            AsyncRewrite.None("Monitor.Wait has no awaitable form: replace the Wait/Pulse pair with a TaskCompletionSource (or a Channel) that the waiter awaits")),
        E("System.Threading.ManualResetEventSlim", "Wait", BlockingKind.SyncWait, "ManualResetEventSlim.Wait",
            new AsyncRewrite(AsyncRewriteKind.Completion, "ManualResetEventSlim has no async wait: signal a TaskCompletionSource (RunContinuationsAsynchronously) instead and await its Task")),
        E("System.Threading.SemaphoreSlim", "Wait", BlockingKind.SyncWait, "SemaphoreSlim.Wait", AsyncRewrite.Sibling),
        E("System.Threading.WaitHandle", "WaitOne|WaitOneNoCheck|WaitOneCore", BlockingKind.SyncWait, "WaitHandle.WaitOne", new AsyncRewrite(AsyncRewriteKind.Completion, WaitHandleAdvice)),
        E("System.Threading.WaitHandle", "WaitAll", BlockingKind.SyncWait, "WaitHandle.WaitAll", AsyncRewrite.None(WaitHandleAdvice)),
        E("System.Threading.WaitHandle", "WaitAny|WaitMultiple|WaitMultipleIgnoringSyncContext", BlockingKind.SyncWait, "WaitHandle.WaitAny", AsyncRewrite.None(WaitHandleAdvice)),
        E("System.Diagnostics.Process", "WaitForExit|WaitForExitCore|WaitForInputIdle", BlockingKind.SyncWait, "Process.WaitForExit", AsyncRewrite.Sibling),
        E("System.Threading.CountdownEvent", "Wait", BlockingKind.SyncWait, "CountdownEvent.Wait",
            AsyncRewrite.None("CountdownEvent has no async wait: collect the tasks and await Task.WhenAll")),
        E("System.Threading.Barrier", "SignalAndWait", BlockingKind.SyncWait, "Barrier.SignalAndWait",
            AsyncRewrite.None("Barrier has no async wait: restructure the phases as tasks awaited with Task.WhenAll")),

        E("System.Net.Sockets.SocketAsyncContext", "PerformSyncOperation", BlockingKind.SyncSocketIO, "synchronous socket call"),
        E("System.Net.Sockets.Socket", "Receive|Send|Connect|Accept|ReceiveFrom|SendTo|Poll|Select|ReceiveMessageFrom", BlockingKind.SyncSocketIO),
        E("System.Net.Sockets.NetworkStream", "Read|Write|ReadByte|WriteByte|ReadExactly|ReadAtLeast", BlockingKind.SyncSocketIO),
        E("System.Net.Sockets.TcpClient", "Connect", BlockingKind.SyncSocketIO),
        E("System.Net.Security.SslStream", "Read|Write|AuthenticateAsClient|AuthenticateAsServer", BlockingKind.SyncSocketIO),
        E("System.Net.Dns", "GetHostEntry|GetHostAddresses|GetHostByName", BlockingKind.SyncSocketIO),

        E("System.Net.Http.HttpClient", "Send", BlockingKind.SyncHttp),
        // Request.Form reads the whole body synchronously (source shows the property; its async sibling is a method).
        E("Microsoft.AspNetCore.Http.HttpRequest", "get_Form", BlockingKind.SyncStreamIO, "HttpRequest.Form", AsyncRewrite.SiblingNamed("ReadFormAsync")),
        // An uploaded file copied synchronously reads the request body (or its buffer file) on the calling thread.
        E("Microsoft.AspNetCore.Http.IFormFile", "CopyTo", BlockingKind.SyncStreamIO, "IFormFile.CopyTo", AsyncRewrite.Sibling),
        E("Microsoft.AspNetCore.Http.FormFile", "CopyTo", BlockingKind.SyncStreamIO, "IFormFile.CopyTo", AsyncRewrite.Sibling),
        E("System.Net.HttpWebRequest", "GetResponse|GetRequestStream", BlockingKind.SyncHttp),
        E("System.Net.WebClient", "DownloadString|DownloadData|DownloadFile|UploadString|UploadData|UploadFile|OpenRead", BlockingKind.SyncHttp),

        // ReadLines reads as it is enumerated (at run time its frame is the enumerator's; source shows the call).
        E("System.IO.File", "ReadAllText|ReadAllBytes|ReadAllLines|WriteAllText|WriteAllBytes|WriteAllLines|AppendAllText|AppendAllLines|AppendAllBytes|ReadLines|Copy|Move",
            BlockingKind.SyncStreamIO),
        E("System.IO.FileStream", "Read|Write|Flush|ReadByte|WriteByte|CopyTo", BlockingKind.SyncStreamIO),
        E("System.IO.RandomAccess", "Read|Write", BlockingKind.SyncStreamIO),
        // Opening a file is a system call with no async form: a wait on a network share or a busy disk.
        E("System.IO.FileStream", ".ctor", BlockingKind.SyncStreamIO, "new FileStream", AsyncRewrite.None(OpenAdvice)),
        E("System.IO.File", FileOpens, BlockingKind.SyncStreamIO, fix: AsyncRewrite.None(OpenAdvice)),
        E("System.IO.FileInfo", FileOpens, BlockingKind.SyncStreamIO, fix: AsyncRewrite.None(OpenAdvice)),
        // Deleting, moving and replacing change the file system on the calling thread (a wait on a network share or a
        // busy disk; a recursive delete walks the whole tree); .NET has no async form of any of them.
        E("System.IO.File", "Delete|Replace", BlockingKind.SyncStreamIO, fix: AsyncRewrite.None(FileChangeAdvice)),
        E("System.IO.FileInfo", "Delete|CopyTo|MoveTo|Replace", BlockingKind.SyncStreamIO, fix: AsyncRewrite.None(FileChangeAdvice)),
        E("System.IO.Directory", "Delete|Move", BlockingKind.SyncStreamIO, fix: AsyncRewrite.None(FileChangeAdvice)),
        E("System.IO.DirectoryInfo", "Delete|MoveTo", BlockingKind.SyncStreamIO, fix: AsyncRewrite.None(FileChangeAdvice)),
        // Directory listings read the file system on the calling thread; .NET has no async listing. A lazy listing
        // (Enumerate*) reads as it is enumerated: at run time its frame is the enumerator's.
        E("System.IO.Directory", "GetFiles|GetDirectories|GetFileSystemEntries|EnumerateFiles|EnumerateDirectories|EnumerateFileSystemEntries", BlockingKind.SyncStreamIO,
            fix: AsyncRewrite.None(ListingAdvice)),
        E("System.IO.DirectoryInfo", "GetFiles|GetDirectories|GetFileSystemInfos|EnumerateFiles|EnumerateDirectories|EnumerateFileSystemInfos", BlockingKind.SyncStreamIO,
            fix: AsyncRewrite.None(ListingAdvice)),
        E("System.IO.Enumeration.FileSystemEnumerator`1", "MoveNext", BlockingKind.SyncStreamIO, "directory enumeration", AsyncRewrite.None(ListingAdvice)),
        // ComputeHash(Stream) reads the stream to its end (scan reports it over a stream only; a frame cannot tell the
        // overload, so on a stack it names the read below it, never a thread busy hashing bytes).
        E("System.Security.Cryptography.HashAlgorithm", "ComputeHash", BlockingKind.SyncStreamIO, "HashAlgorithm.ComputeHash", AsyncRewrite.Sibling) with { Around = true },
        // Logging frameworks' flush waits for every target or sink to write what it queued.
        E("NLog.LogManager", "Flush", BlockingKind.SyncWait, "LogManager.Flush", AsyncRewrite.None(NLogFlushAdvice)),
        E("NLog.LogFactory", "Flush", BlockingKind.SyncWait, "LogFactory.Flush", AsyncRewrite.None(NLogFlushAdvice)),
        E("Serilog.Log", "CloseAndFlush", BlockingKind.SyncWait, "Log.CloseAndFlush", AsyncRewrite.Sibling),
        // Archives: opening reads the central directory, extracting reads and writes every entry, on the calling thread.
        E("System.IO.Compression.ZipFile", "OpenRead|Open|ExtractToDirectory|CreateFromDirectory", BlockingKind.SyncStreamIO),
        E("System.IO.Compression.ZipFileExtensions", "ExtractToDirectory|ExtractToFile|CreateEntryFromFile", BlockingKind.SyncStreamIO),
        // XmlSerializer over a stream or reader reads it whole, synchronously.
        E("System.Xml.Serialization.XmlSerializer", "Deserialize|Serialize", BlockingKind.SyncStreamIO),
        // XML loaded whole: from a path, the file on the calling thread (scan reports it from a path or over a file or
        // stream, not over memory; on a stack it names the read below it, never a thread busy parsing).
        E("System.Xml.XmlDocument", "Load", BlockingKind.SyncStreamIO, "XmlDocument.Load", AsyncRewrite.None(XmlLoadAdvice)) with { Around = true },
        E("System.Xml.Linq.XDocument", "Load", BlockingKind.SyncStreamIO, "XDocument.Load", AsyncRewrite.None(XmlLoadAdvice)) with { Around = true },
        E("System.Xml.Linq.XElement", "Load", BlockingKind.SyncStreamIO, "XElement.Load", AsyncRewrite.None(XmlLoadAdvice)) with { Around = true },
        // LibGit2Sharp (libgit2): fetches, pulls, pushes and clones talk to the remote, commits, checkouts, staging and
        // status read and write the working tree, all synchronously in native code.
        E("LibGit2Sharp.Commands", "Pull|Fetch", BlockingKind.SyncHttp, fix: AsyncRewrite.None(GitAdvice)),
        E("LibGit2Sharp.Commands", "Checkout|Stage|Unstage|Move|Remove", BlockingKind.SyncStreamIO, fix: AsyncRewrite.None(GitAdvice)),
        E("LibGit2Sharp.Network", "Push|Fetch|ListReferences", BlockingKind.SyncHttp, fix: AsyncRewrite.None(GitAdvice)),
        E("LibGit2Sharp.Repository", "Clone|ListRemoteReferences", BlockingKind.SyncHttp, fix: AsyncRewrite.None(GitAdvice)),
        E("LibGit2Sharp.Repository", "Commit|RetrieveStatus|Reset|CheckoutPaths|Merge|Revert|CherryPick|Init", BlockingKind.SyncStreamIO, fix: AsyncRewrite.None(GitAdvice)),
        E("LibGit2Sharp.IRepository", "Commit|RetrieveStatus|Reset|CheckoutPaths|Merge|Revert|CherryPick", BlockingKind.SyncStreamIO, fix: AsyncRewrite.None(GitAdvice)),
        E("LibGit2Sharp.RepositoryExtensions", "Commit|RetrieveStatus|Reset|CheckoutPaths|Merge|Revert|CherryPick", BlockingKind.SyncStreamIO, fix: AsyncRewrite.None(GitAdvice)),
        E("System.IO.StreamReader", "ReadToEnd|ReadLine|Read", BlockingKind.SyncStreamIO),
        // At Tier 1 the JIT inlines ReadToEnd/ReadLine into their caller, leaving the buffer fill they share.
        E("System.IO.StreamReader", "ReadBuffer", BlockingKind.SyncStreamIO, "StreamReader read (ReadToEnd/ReadLine)"),
        E("System.IO.Stream", "CopyTo|ReadExactly|ReadAtLeast|Read|Write|Flush|ReadByte|WriteByte", BlockingKind.SyncStreamIO),
        E("System.IO.StreamWriter", "Write|WriteLine|Flush", BlockingKind.SyncStreamIO),
        // Kestrel's request and response streams: the synchronous calls block on the connection (AllowSynchronousIO).
        E("Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpRequestStream", "Read|ReadByte|CopyTo", BlockingKind.SyncStreamIO, "Request.Body.Read"),
        E("Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpResponseStream", "Write|WriteByte|Flush", BlockingKind.SyncStreamIO, "Response.Body.Write"),

        // Database drivers: namespaces, so the public sync API (NpgsqlCommand.ExecuteNonQuery) is the outermost match.
        E("Npgsql.", DbCalls, BlockingKind.SyncDatabaseIO),
        E("Microsoft.Data.SqlClient.", DbCalls, BlockingKind.SyncDatabaseIO),
        E("System.Data.SqlClient.", DbCalls, BlockingKind.SyncDatabaseIO),
        E("MySqlConnector.", DbCalls, BlockingKind.SyncDatabaseIO),
        E("MySql.Data.", DbCalls, BlockingKind.SyncDatabaseIO),
        E("Microsoft.Data.Sqlite.", DbCalls, BlockingKind.SyncDatabaseIO),
        E("Oracle.ManagedDataAccess.", DbCalls, BlockingKind.SyncDatabaseIO),
        E("System.Data.Common.", DbCalls, BlockingKind.SyncDatabaseIO),
        E("Dapper.", DbCalls, BlockingKind.SyncDatabaseIO),
        // NHibernate: a session's reads and flushes, a transaction's commit (it flushes) and a query's execution go to the
        // database on the calling thread; each has an async sibling since NHibernate 5 (GetAsync, FlushAsync, CommitAsync,
        // ListAsync). Load (a proxy), Save/SaveOrUpdate (queued to the flush) and Evict do not wait for the database.
        E("NHibernate.ISession", "Get|Flush|Refresh", BlockingKind.SyncDatabaseIO),
        E("NHibernate.IStatelessSession", "Get|Insert|Update|Delete|Refresh", BlockingKind.SyncDatabaseIO),
        E("NHibernate.ITransaction", "Commit|Rollback", BlockingKind.SyncDatabaseIO),
        E("NHibernate.IQuery", "List|UniqueResult|ExecuteUpdate", BlockingKind.SyncDatabaseIO),
        E("NHibernate.ICriteria", "List|UniqueResult", BlockingKind.SyncDatabaseIO),
        E("NHibernate.IQueryOver`1", "List|SingleOrDefault|RowCount|RowCountInt64", BlockingKind.SyncDatabaseIO),
        // EF Core's RemoveRange over a query runs it to find the entities (scan reports it over a query only; a list is in memory).
        E("Microsoft.EntityFrameworkCore.DbSet`1", "RemoveRange", BlockingKind.SyncDatabaseIO, "DbSet.RemoveRange", new AsyncRewrite(AsyncRewriteKind.QueryList, RemoveRangeAdvice)),
        E("Microsoft.EntityFrameworkCore.Internal.InternalDbSet`1", "RemoveRange", BlockingKind.SyncDatabaseIO, "DbSet.RemoveRange", new AsyncRewrite(AsyncRewriteKind.QueryList, RemoveRangeAdvice)),
        E("Microsoft.EntityFrameworkCore.DbContext", "RemoveRange", BlockingKind.SyncDatabaseIO, "DbContext.RemoveRange", new AsyncRewrite(AsyncRewriteKind.QueryList, RemoveRangeAdvice)),

        // A distributed cache's synchronous calls wait for its store (Redis, SQL Server) on the calling thread; each has
        // an async sibling (GetAsync, SetStringAsync).
        E("Microsoft.Extensions.Caching.Distributed.IDistributedCache", "Get|Set|Refresh|Remove", BlockingKind.SyncSocketIO),
        E("Microsoft.Extensions.Caching.Distributed.DistributedCacheExtensions", "GetString|SetString|Set", BlockingKind.SyncSocketIO),
    ];

    /// <summary>
    /// Every entry: <see cref="Rows"/> and the rows System.IO.Abstractions' interfaces, wrappers and bases share with
    /// their System.IO counterparts (<see cref="FileSystemAbstractions"/>), made from those rows, never copied.
    /// </summary>
    public static readonly IReadOnlyList<Entry> Entries = [.. Rows, .. FileSystemAbstractions.RowsFor(Rows)];

    /// <summary>The blocking call a frame is, or null when the frame is not in the catalogue.</summary>
    public static BlockingCall? Match(StackFrame frame) => Match(frame, []);

    /// <summary>
    /// The blocking call a frame is, looking first in <paramref name="extra"/> (a team's own blocking APIs, from
    /// <c>tplab scan</c>'s config file), then in the catalogue; null when neither knows it.
    /// </summary>
    public static BlockingCall? Match(StackFrame frame, IReadOnlyList<Entry> extra)
    {
        ArgumentNullException.ThrowIfNull(extra);
        foreach (var entry in extra.Concat(Entries))
        {
            if (entry.Matches(frame))
            {
                return new BlockingCall(entry.Kind, entry.Name ?? ShortName(frame), frame);
            }
        }
        return null;
    }

    /// <summary>
    /// Adds what the call blocks on when the frames between it and the application say so: the request body
    /// (Kestrel's request stream), a socket, a file, or dependency injection's lock while another thread builds a singleton.
    /// </summary>
    public static BlockingCall? Refine(BlockingCall? call, IReadOnlyList<StackFrame> frames, int callIndex)
    {
        if (call is null)
        {
            return null;
        }
        var above = frames.Take(callIndex + 1).ToList();
        string? on = null;
        if (above.Any(f => f.TypeName.StartsWith("Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpRequestStream", StringComparison.Ordinal)))
        {
            on = "the request body";
        }
        else if (above.Any(f => f.TypeName.StartsWith("Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpResponseStream", StringComparison.Ordinal)))
        {
            on = "the response body";
        }
        else if (call.Kind is BlockingKind.SyncStreamIO && above.Any(f => f.TypeName.StartsWith("System.Net.Sockets.", StringComparison.Ordinal)))
        {
            on = "a socket";
        }
        else if (call.Kind is BlockingKind.SyncStreamIO && above.Any(f => f.TypeName.StartsWith("System.IO.FileStream", StringComparison.Ordinal) || f.TypeName.StartsWith("System.IO.RandomAccess", StringComparison.Ordinal)))
        {
            on = "a file";
        }
        // The container locks while it builds a singleton or scoped service: the thread waits for another thread's factory.
        var container = call.Kind is BlockingKind.Lock
            && frames.Skip(callIndex + 1).Take(8).Any(f => f.TypeName.StartsWith("Microsoft.Extensions.DependencyInjection.ServiceLookup.", StringComparison.Ordinal));
        return call with { On = container ? "dependency injection's lock, while another thread runs a service factory" : on, ContainerLock = container };
    }

    /// <summary>A wait no catalogue entry explains, named after the top frame that has a name.</summary>
    public static BlockingCall Unrecognised(IReadOnlyList<StackFrame> frames)
    {
        var top = frames.FirstOrDefault(f => !f.IsUnresolved) ?? new StackFrame("", "", "[native code]");
        return new BlockingCall(BlockingKind.Unrecognised, top.TypeName.Length == 0 ? top.MethodName : ShortName(top), top);
    }

    /// <summary><c>Npgsql.NpgsqlCommand.ExecuteNonQuery</c> → <c>NpgsqlCommand.ExecuteNonQuery</c>.</summary>
    public static string ShortName(StackFrame frame)
    {
        var type = frame.OpenTypeName;
        var lastDot = type.LastIndexOf('.');
        var shortType = type[(lastDot + 1)..].Replace('+', '.');
        var tick = shortType.IndexOf('`', StringComparison.Ordinal);
        return (tick > 0 ? shortType[..tick] : shortType) + "." + MethodName(frame.MethodName);
    }

    // Compiler-made names as users know them: a P/Invoke's generated stub ("<Receive>g____PInvoke|70_0") is the
    // P/Invoke, a lambda ("<Run>b__0") the method it is written in.
    private static string MethodName(string name)
    {
        var end = name.IndexOf('>', StringComparison.Ordinal);
        if (!name.StartsWith('<') || end < 2)
        {
            return name;
        }
        var inner = name[1..end].TrimStart('<');
        return name.Contains("PInvoke", StringComparison.Ordinal) ? inner : inner + " (lambda)";
    }

    /// <summary>Whether the frame's row names a wait only around another row's frame (<see cref="Entry.Around"/>).</summary>
    public static bool OnlyAround(StackFrame frame) => EntryFor(frame)?.Around == true;

    /// <summary>The row a frame matches (the team's <paramref name="extra"/> rows first), or null.</summary>
    public static Entry? EntryFor(StackFrame frame, IReadOnlyList<Entry>? extra = null) =>
        (extra ?? []).Concat(Entries).FirstOrDefault(e => e.Matches(frame));

    /// <summary>How <c>tplab fix</c> rewrites <paramref name="call"/>: its row's rewrite, or its family's default when no row names it (a call only source shows: EF Core, ADO.NET through base types).</summary>
    public static AsyncRewrite RewriteFor(BlockingCall call)
    {
        ArgumentNullException.ThrowIfNull(call);
        return EntryFor(call.Frame)?.Rewrite ?? AsyncRewrite.For(call.Kind);
    }

    private static Entry E(string type, string methods, BlockingKind kind, string? name = null, AsyncRewrite? fix = null) =>
        new(type, methods.Split('|').ToFrozenSet(StringComparer.Ordinal), kind, name, fix);
}
