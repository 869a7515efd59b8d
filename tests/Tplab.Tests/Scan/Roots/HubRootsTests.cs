using Tplab.Blocking;
using Tplab.Scan.Roots;
using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Roots;

/// <summary>A hub's methods are entry points wherever the hub declares them: its own and those of its abstract bases.</summary>
[ParallelSafe]
public sealed class HubRootsTests
{
    private const string SignalR = """
        namespace Microsoft.AspNetCore.SignalR
        {
            public abstract class Hub
            {
                public virtual Task OnConnectedAsync() => Task.CompletedTask;
                public virtual Task OnDisconnectedAsync(Exception? exception) => Task.CompletedTask;
            }
        }
        """;

    [Fact]
    public void Find_HubMethodsOfAnAbstractBaseHub_AreEntryPointsOfTheConcreteHub()
    {
        var roots = Snippet.FindingsByRoot("""
            using Microsoft.AspNetCore.SignalR;
            public abstract class HubBase : Hub { public Task Ping() => Task.CompletedTask; }
            public abstract class OnlineHubBase : HubBase
            {
                public override async Task OnConnectedAsync() { Thread.Sleep(5); await Task.Yield(); }
                public override Task OnDisconnectedAsync(Exception? exception) => Task.CompletedTask;
            }
            public sealed class CommonHub : OnlineHubBase
            {
                public Task Send(string message) => Task.CompletedTask;
                public override Task OnDisconnectedAsync(Exception? exception) => base.OnDisconnectedAsync(exception);
            }
            """, SignalR);
        var hubs = roots.Where(r => r.Root.Place == CodePlace.Hub).ToList();
        Assert.Equal(["CommonHub.OnDisconnectedAsync", "CommonHub.Send", "HubBase.Ping", "OnlineHubBase.OnConnectedAsync"],
            hubs.Select(r => r.Root.Node.Symbol.ContainingType.Name + "." + r.Root.Node.Symbol.Name).Order(StringComparer.Ordinal));
        var connected = Assert.Single(hubs, r => r.Root.Node.Symbol.Name == "OnConnectedAsync");
        Assert.Equal("Thread.Sleep", Assert.Single(connected.Findings).Call.Name);
    }
}
