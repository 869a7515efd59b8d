using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// Callbacks a library runs on a pool thread, entry points of their own whoever queued them:
/// <list type="bullet">
/// <item><c>ThreadPool.QueueUserWorkItem</c> / <c>UnsafeQueueUserWorkItem</c> work items (a pool thread runs each);</item>
/// <item><c>SocketsHttpHandler.ConnectCallback</c>: the connection pool starts each new connection with
/// <c>await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding)</c>
/// (<c>HttpConnectionPool.InjectNewHttp11ConnectionAsync</c>, .NET 8 and later), so the callback runs on a pool thread
/// while the request that needs the connection waits for it.</item>
/// </list>
/// </summary>
internal static class PoolCallbacks
{
    public static IEnumerable<EntryPoint> Find(SourceIndex index, Sites sites)
    {
        foreach (var name in new[] { "QueueUserWorkItem", "UnsafeQueueUserWorkItem" })
        {
            foreach (var (call, _) in sites.Invocations(name))
            {
                if (Ops.NameOf(call.TargetMethod.ContainingType) != "System.Threading.ThreadPool")
                {
                    continue;
                }
                var callback = call.Arguments.Select(a => Ops.Unwrap(a.Value)).FirstOrDefault(v => v is IDelegateCreationOperation or IAnonymousFunctionOperation or IMethodReferenceOperation);
                if (NodeOf(index, callback) is { } node)
                {
                    yield return new EntryPoint(node, CodePlace.PoolCallback, null);
                }
            }
        }
        foreach (var value in sites.ConnectCallbacks())
        {
            if (NodeOf(index, Ops.Unwrap(value)) is { } node)
            {
                yield return new EntryPoint(node, CodePlace.PoolCallback, null);
            }
        }
    }

    private static CodeNode? NodeOf(SourceIndex index, IOperation? value) => value switch
    {
        IDelegateCreationOperation d => NodeOf(index, d.Target),
        IAnonymousFunctionOperation lambda => index.NodeFor(lambda.Syntax),
        IMethodReferenceOperation reference when index.IsSource(reference.Method) => index.NodeFor(reference.Method),
        _ => null,
    };
}
