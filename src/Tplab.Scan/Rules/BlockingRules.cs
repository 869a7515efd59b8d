using System.Collections.Frozen;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Blocking;

namespace Tplab.Scan.Rules;

/// <summary>A library call judged to hold the pool thread, how sure that is, and why when it is not sure.</summary>
/// <param name="Evidence">Why the call is judged so, in words: the receiver's type, the query's provider, the stream's origin.</param>
internal sealed record Verdict(BlockingCall Call, Certainty Certainty, string? Why = null, string? Evidence = null);

/// <summary>
/// Decides whether a library call blocks. The shared catalogue (<see cref="BlockingCallCatalogue"/>, diagnose's) names
/// the call and its family; the rules here add what only source shows (sync EF Core queries, ADO.NET through any
/// provider's base types, Parallel loops) and take back what source proves harmless (a completed task's Result, a
/// MemoryStream read, <c>Wait(0)</c>).
/// </summary>
internal sealed class BlockingRules(IReadOnlyList<BlockingCallCatalogue.Entry> extra, IArgumentSource? callers = null)
{
    private static readonly FrozenSet<string> DbMethods = AspNetVocabulary.SyncDatabaseMethods;

    private static readonly string[] DbBaseTypes =
    [
        "System.Data.Common.DbCommand", "System.Data.Common.DbConnection", "System.Data.Common.DbDataReader", "System.Data.Common.DbTransaction",
        "System.Data.Common.DbBatch",
    ];

    private static readonly string[] DbInterfaces = ["System.Data.IDbCommand", "System.Data.IDbConnection", "System.Data.IDataReader", "System.Data.IDbTransaction"];

    private static readonly string[] StreamTypes =
        ["System.IO.Stream", "System.IO.StreamReader", "System.IO.StreamWriter", "System.IO.TextReader", "System.IO.TextWriter", "System.IO.BinaryReader", "System.IO.BinaryWriter"];

    /// <summary>The verdict on <paramref name="call"/> (an invocation or a property read) of <paramref name="method"/>, or null when it does not block.</summary>
    public Verdict? ForCall(IOperation call, IMethodSymbol method, IOperation? receiver, IOperation body)
    {
        var definition = SymbolNames.Definition(method);
        var frame = SymbolNames.Frame(definition);
        var type = frame.TypeName;
        var name = frame.MethodName;

        if (type == "System.Threading.Tasks.Parallel" && name is "For" or "ForEach" or "Invoke")
        {
            return new Verdict(new BlockingCall(BlockingKind.Parallel, "Parallel." + name, frame), Certainty.Certain);
        }
        if (XmlReads.Handles(type, name))
        {
            return XmlReads.Judge(call, frame, body, callers);
        }
        if (SourceOnly(call, definition, frame, receiver, body, callers) is { } sourceOnly)
        {
            return sourceOnly;
        }
        var matched = BlockingCallCatalogue.Match(frame, extra);
        if (matched is null)
        {
            return null;
        }
        if (ArgumentRules.Judge(call, matched, body, callers, out var judged))
        {
            return judged;
        }
        var invocation = call as IInvocationOperation;
        switch (matched.Kind)
        {
            // Locks are judged by who else holds the same object (LockAnalysis), not at the call.
            case BlockingKind.Lock:
                return null;
            case BlockingKind.Sleep when invocation is not null && Ops.ConstantArgument(invocation, 0) == 0:
                return null;
            case BlockingKind.SyncWait when invocation is not null && name is "Wait" or "WaitOne" && Ops.ConstantArgument(invocation, 0) == 0:
                return null;
            case BlockingKind.SyncOverAsync when CompletedTasks.IsProven(TaskOf(call, receiver), call, body):
                return null;
            // A file opened for asynchronous I/O: the form the open's own advice asks for (the open has no async form).
            case BlockingKind.SyncStreamIO when name is ".ctor" or "Open" && AsyncFileOpens.IsAsynchronous(call, body):
                return null;
            case BlockingKind.SyncStreamIO or BlockingKind.SyncSocketIO when StreamTypes.Contains(type) || type == "System.IO.FileStream":
                return ForStream(matched, call, receiver, body, callers);
            default:
                return new Verdict(matched, Certainty.Certain);
        }
    }

    /// <summary>A call the team's config declares blocking, whether the method is a library's or the solution's own.</summary>
    public Verdict? Configured(IMethodSymbol method)
    {
        if (extra.Count == 0)
        {
            return null;
        }
        var frame = SymbolNames.Frame(SymbolNames.Definition(method));
        var entry = extra.FirstOrDefault(e => e.Matches(frame));
        return entry is null ? null : new Verdict(new BlockingCall(entry.Kind, entry.Name ?? BlockingCallCatalogue.ShortName(frame), frame), Certainty.Certain);
    }

    /// <summary>A <c>foreach</c> over an IQueryable runs the query synchronously.</summary>
    public Verdict? ForEach(IForEachLoopOperation loop, IOperation body)
    {
        var collection = Ops.Unwrap(loop.Collection);
        if (loop.IsAsynchronous || collection?.Type is null || collection.Type.SpecialType == SpecialType.System_String)
        {
            return null;
        }
        var queryable = Queries.IsQueryable(collection.Type);
        // An IEnumerable is a query only when source shows it is one (a DbSet after AsEnumerable(), a query typed IEnumerable).
        if (!queryable && !Ops.Implements(collection.Type, "System.Collections.IEnumerable"))
        {
            return null;
        }
        var (origin, evidence) = Queries.Trace(collection, body, callers);
        var frame = new StackFrame("", "System.Linq.IQueryable`1", "GetEnumerator");
        return origin switch
        {
            QueryOrigin.Database => new Verdict(new BlockingCall(BlockingKind.SyncDatabaseIO, "IQueryable foreach (EF Core)", frame), Certainty.Certain, null,
                "enumerates a database query: " + evidence),
            _ => QueryVerdicts.NotProven(new BlockingCall(BlockingKind.SyncDatabaseIO, "IQueryable foreach", frame), (origin, evidence), collection.Type, "enumerates"),
        };
    }

    private static Verdict? SourceOnly(IOperation call, IMethodSymbol method, StackFrame frame, IOperation? receiver, IOperation body, IArgumentSource? callers)
    {
        var type = frame.TypeName;
        var name = frame.MethodName;
        // Sync EF Core: SaveChanges, Find, ExecuteSql*, Migrate; and sync execution of an EF query.
        if ((type == "Microsoft.EntityFrameworkCore.DbContext" && name is "SaveChanges" or "Find")
            || (type == "Microsoft.EntityFrameworkCore.DbSet`1" && name == "Find")
            || (type == "Microsoft.EntityFrameworkCore.RelationalDatabaseFacadeExtensions" && name is "ExecuteSqlRaw" or "ExecuteSql" or "ExecuteSqlInterpolated" or "Migrate")
            || (type == "Microsoft.EntityFrameworkCore.Infrastructure.DatabaseFacade" && name is "EnsureCreated" or "EnsureDeleted" or "BeginTransaction" or "CommitTransaction" or "RollbackTransaction"))
        {
            return new Verdict(new BlockingCall(BlockingKind.SyncDatabaseIO, BlockingCallCatalogue.ShortName(frame), frame), Certainty.Certain);
        }
        if (type is "System.Linq.Enumerable" or "System.Linq.Queryable" or "Microsoft.EntityFrameworkCore.EntityFrameworkQueryableExtensions"
            && Queries.Executing.Contains(name) && call is IInvocationOperation invocation)
        {
            // In-memory LINQ never blocks: only a query source shows reaches a database (or an IQueryable whose provider it does not show).
            var (origin, evidence) = Queries.Trace(Ops.Receiver(invocation), body, callers);
            // Named as the stack would show it (Enumerable.ToList, Queryable.First): the same name diagnose gives the call.
            var named = new BlockingCall(BlockingKind.SyncDatabaseIO, BlockingCallCatalogue.ShortName(frame), frame);
            return origin switch
            {
                QueryOrigin.Database => new Verdict(named with { On = "an EF Core query" }, Certainty.Certain, null, "runs a database query: " + evidence),
                _ => QueryVerdicts.NotProven(named, (origin, evidence), Ops.Unwrap(Ops.Receiver(invocation))?.Type, "runs"),
            };
        }
        if (QueryVerdicts.ForCollection(call, frame, body, callers) is { } filled)
        {
            return filled;
        }
        // ADO.NET of any provider: its types derive from System.Data.Common's, or implement System.Data's interfaces.
        if (DbMethods.Contains(name) && method.ContainingType is { } owner
            && (DbBaseTypes.Any(b => Ops.IsOrDerives(owner, b)) || DbInterfaces.Any(i => Ops.Implements(owner, i))))
        {
            return new Verdict(new BlockingCall(BlockingKind.SyncDatabaseIO, BlockingCallCatalogue.ShortName(frame), frame), Certainty.Certain);
        }
        if (type == "System.Threading.Tasks.ValueTask`1" && name == "get_Result" && !CompletedTasks.IsProven(receiver, call, body))
        {
            return new Verdict(new BlockingCall(BlockingKind.SyncOverAsync, "ValueTask.Result", frame), Certainty.Certain);
        }
        // Request.Form reads the whole body synchronously (sync over async inside ASP.NET Core).
        if (type == "Microsoft.AspNetCore.Http.HttpRequest" && name == "get_Form")
        {
            if (ModelBoundAction(call) is { } action)
            {
                // MVC's model binding read the form asynchronously (FormValueProviderFactory: ReadFormAsync) before the action ran.
                _ = action;
                return null;
            }
            return new Verdict(new BlockingCall(BlockingKind.SyncStreamIO, "HttpRequest.Form", frame) { On = "the request body" }, Certainty.Certain);
        }
        // System.Text.Json over a stream: the synchronous overloads read or write the whole stream on the calling thread.
        if (type == "System.Text.Json.JsonSerializer" && name is "Deserialize" or "Serialize" && call is IInvocationOperation json
            && json.Arguments.FirstOrDefault(a => Ops.IsOrDerives(a.Value.Type, "System.IO.Stream")) is { } streamArgument)
        {
            var origin = StreamOrigins.Classify(streamArgument.Value, body, callers);
            var named = new BlockingCall(BlockingKind.SyncStreamIO, "JsonSerializer." + name, frame) { On = StreamOrigins.Words(origin) };
            return origin switch
            {
                StreamOrigin.Memory => null,
                StreamOrigin.Unknown => new Verdict(named, Certainty.Uncertain, "the stream's type is not known from source"),
                _ => new Verdict(named, Certainty.Certain),
            };
        }
        return null;
    }

    // The MVC action that holds the call, when it has parameters model binding fills: the form was read before it ran.
    private static IMethodSymbol? ModelBoundAction(IOperation call)
    {
        if (call.SemanticModel?.GetEnclosingSymbol(call.Syntax.SpanStart) is not IMethodSymbol { MethodKind: MethodKind.Ordinary } method
            || method.ContainingType is not { } type || !MvcTypes.IsController(type))
        {
            return null;
        }
        var bound = method.Parameters.Any(p => Ops.NameOf(p.Type) != "System.Threading.CancellationToken"
            && !p.GetAttributes().Any(a => a.AttributeClass?.Name is "FromServicesAttribute" or "FromBodyAttribute" or "FromKeyedServicesAttribute"));
        return bound ? method : null;
    }

    private static Verdict? ForStream(BlockingCall matched, IOperation at, IOperation? receiver, IOperation body, IArgumentSource? callers)
    {
        var origin = StreamOrigins.Classify(receiver, body, callers);
        var name = matched.Frame.MethodName;
        // A re-read of a body already buffered whole reads memory (or the buffer's temporary file), not the connection.
        if (origin == StreamOrigin.RequestBody && name is "Read" or "ReadByte" or "CopyTo" or "ReadExactly" or "ReadAtLeast" or "ReadToEnd" or "ReadLine" or "ReadBlock"
            && BufferedBodies.IsBufferRead(at, body, callers))
        {
            return null;
        }
        var call = matched with { On = StreamOrigins.Words(origin) };
        if (origin == StreamOrigin.RequestBody && matched.Frame.TypeName == "System.IO.Stream" && name is "Read" or "ReadByte" or "CopyTo" or "ReadExactly" or "ReadAtLeast")
        {
            call = call with { Name = "Request.Body.Read" };
        }
        if (origin == StreamOrigin.ResponseBody && matched.Frame.TypeName == "System.IO.Stream" && name is "Write" or "WriteByte" or "Flush")
        {
            call = call with { Name = "Response.Body.Write" };
        }
        // A Stream the code shows to be a file or a socket is named by what it is, as its frame would be.
        if (matched.Frame.TypeName == "System.IO.Stream" && origin is StreamOrigin.File or StreamOrigin.Network)
        {
            call = call with { Name = (origin == StreamOrigin.File ? "FileStream." : "NetworkStream.") + name };
        }
        return origin switch
        {
            StreamOrigin.Memory => null,
            StreamOrigin.Unknown when matched.Frame.TypeName == "System.IO.FileStream" => new Verdict(call with { On = "a file" }, Certainty.Certain),
            StreamOrigin.Unknown => new Verdict(call, Certainty.Uncertain, "the stream's type is not known from source"),
            _ => new Verdict(call, Certainty.Certain),
        };
    }

    // The task whose completion a Result, Wait() or GetAwaiter().GetResult() waits for.
    private static IOperation? TaskOf(IOperation call, IOperation? receiver)
    {
        var r = Ops.Unwrap(receiver);
        // t.GetAwaiter().GetResult(), t.ConfigureAwait(false).GetAwaiter().GetResult()
        while (r is IInvocationOperation { TargetMethod.Name: "GetAwaiter" or "ConfigureAwait" } i)
        {
            r = Ops.Unwrap(i.Instance);
        }
        return call is IInvocationOperation { TargetMethod.Name: "WaitAll" or "WaitAny" } ? null : r;
    }
}
