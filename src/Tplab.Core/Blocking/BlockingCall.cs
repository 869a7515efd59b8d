namespace Tplab.Blocking;

/// <summary>The families of calls that hold a pool thread while they wait.</summary>
public enum BlockingKind
{
    /// <summary><c>Thread.Sleep</c>.</summary>
    Sleep,

    /// <summary>Sync over async: <c>.Result</c>, <c>.Wait()</c>, <c>GetAwaiter().GetResult()</c>, <c>Task.WaitAll</c>.</summary>
    SyncOverAsync,

    /// <summary>A contended <c>lock</c> (<c>Monitor.Enter</c>, <c>System.Threading.Lock</c>, reader/writer locks).</summary>
    Lock,

    /// <summary>A synchronous wait on a primitive: <c>ManualResetEventSlim</c>, <c>SemaphoreSlim</c>, <c>WaitHandle</c>, <c>Monitor.Wait</c>, <c>Thread.Join</c>.</summary>
    SyncWait,

    /// <summary>A synchronous database driver call (<c>ExecuteNonQuery</c>, <c>Open</c>, <c>Read</c>, Dapper's <c>Query</c>).</summary>
    SyncDatabaseIO,

    /// <summary>A synchronous HTTP call (<c>HttpClient.Send</c>, <c>WebRequest.GetResponse</c>).</summary>
    SyncHttp,

    /// <summary>Synchronous socket or network-stream I/O, or DNS.</summary>
    SyncSocketIO,

    /// <summary>Synchronous file or stream I/O.</summary>
    SyncStreamIO,

    /// <summary>A wait the catalogue does not know (a native call, an unknown driver): reported with its stack.</summary>
    Unrecognised,

    /// <summary><c>Parallel.For/ForEach/Invoke</c>: the calling thread waits for the loop while it takes more pool threads (seen in source).</summary>
    Parallel,

    /// <summary><c>await Task.Run(() => ...)</c> over work that does not block: a hop to another pool thread that saves none (seen in source).</summary>
    TaskRunOffload,
}

/// <summary>
/// The call that holds a pool thread: its family and the name a developer recognises
/// (<c>Thread.Sleep</c>, <c>Task.Result</c>, <c>NpgsqlCommand.ExecuteNonQuery</c>), with the frame it was read from.
/// </summary>
public sealed record BlockingCall(BlockingKind Kind, string Name, StackFrame Frame)
{
    /// <summary>What it blocks on when the stack says (the request body, a socket, a file), or null.</summary>
    public string? On { get; init; }

    /// <summary>A <c>lock</c> inside the dependency-injection container: a symptom of another thread's slow service factory.</summary>
    public bool ContainerLock { get; init; }

    /// <summary>The family in words, for the text report.</summary>
    public string KindLabel => Kind switch
    {
        BlockingKind.Sleep => "sleep",
        BlockingKind.SyncOverAsync => "sync over async",
        BlockingKind.Lock => "contended lock",
        BlockingKind.SyncWait => "synchronous wait",
        BlockingKind.SyncDatabaseIO => "synchronous database I/O",
        BlockingKind.SyncHttp => "synchronous HTTP",
        BlockingKind.SyncSocketIO => "synchronous socket I/O",
        BlockingKind.SyncStreamIO => "synchronous file/stream I/O",
        BlockingKind.Unrecognised => "unrecognised wait",
        BlockingKind.Parallel => "parallel loop",
        BlockingKind.TaskRunOffload => "Task.Run offload",
        _ => Kind.ToString(),
    };

    /// <summary><c>Name (family)</c>, for example <c>NpgsqlCommand.ExecuteNonQuery (synchronous database I/O)</c>.</summary>
    public override string ToString() => On is null ? $"{Name} ({KindLabel})" : $"{Name} on {On} ({KindLabel})";
}
