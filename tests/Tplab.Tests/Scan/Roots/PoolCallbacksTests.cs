using Tplab.Blocking;
using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Roots;

/// <summary>Callbacks a library runs on a pool thread are entry points: queued work items and SocketsHttpHandler's ConnectCallback.</summary>
[ParallelSafe]
public sealed class PoolCallbacksTests
{
    [Fact]
    public void Find_QueuedWorkItemsAndConnectCallback_ArePoolCallbackRoots()
    {
        var roots = Snippet.Roots("""
            using System.Net.Sockets;
            public static class Work
            {
                public static void Start()
                {
                    ThreadPool.QueueUserWorkItem(_ => Thread.Sleep(10));
                    ThreadPool.UnsafeQueueUserWorkItem(Flush, null);
                    var handler = new SocketsHttpHandler { ConnectCallback = Connect };
                    GC.KeepAlive(handler);
                }

                static void Flush(object? state) => File.WriteAllText("a", "b");

                static async ValueTask<Stream> Connect(SocketsHttpConnectionContext context, CancellationToken cancellationToken)
                {
                    var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
                    await socket.ConnectAsync(context.DnsEndPoint, cancellationToken);
                    return new NetworkStream(socket, ownsSocket: true);
                }
            }
            """);
        var pool = roots.Roots.Where(r => r.Place == CodePlace.PoolCallback).Select(r => r.Node.DisplayName).Order(StringComparer.Ordinal).ToList();
        Assert.Equal(["Work.Connect", "Work.Flush", "Work.Start (lambda)"], pool);
        Assert.All(roots.Roots.Where(r => r.Place == CodePlace.PoolCallback), r => Assert.Equal($"pool-callback {r.Node.FullName}", r.Key));
    }

    [Fact]
    public void Find_ATaskRunOrAnotherTypesQueueUserWorkItem_IsNotARoot()
    {
        var roots = Snippet.Roots("""
            public static class Queue { public static void QueueUserWorkItem(Action a) => a(); }
            public static class Work { public static void Start() { Queue.QueueUserWorkItem(() => Thread.Sleep(1)); } }
            """);
        Assert.DoesNotContain(roots.Roots, r => r.Place == CodePlace.PoolCallback);
    }
}
