using Tplab.Tests.Scan.Rules;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Graph;

/// <summary>
/// A call through an interface goes where the receiver's own interface can take it: a member it inherits from a base
/// interface runs in the receiver's implementers only, and a library interface over the solution's own type reaches
/// the solution's implementations of that instantiation.
/// </summary>
[ParallelSafe]
public sealed class InheritedDispatchTests
{
    [Fact]
    public void Resolve_BaseInterfaceMember_OnlyTheReceiverInterfacesImplementers()
    {
        var findings = Snippet.Findings("""
            public interface IWorker : IDisposable { void Run(); }
            public sealed class Worker : IWorker { public void Run() { } public void Dispose() { } }
            public sealed class Element : IDisposable { public void Dispose() => Task.Delay(5).Wait(); }
            public static class Root { public static void Handle(IWorker worker) => worker.Dispose(); }
            """);
        Assert.Empty(findings);
    }

    [Fact]
    public void Resolve_BaseInterfaceMember_ReachesTheImplementerThatBlocks()
    {
        var finding = Assert.Single(Snippet.Findings("""
            public interface IWorker : IDisposable { void Run(); }
            public sealed class Worker : IWorker { public void Run() { } public void Dispose() => Thread.Sleep(5); }
            public sealed class Element : IDisposable { public void Dispose() => Task.Delay(5).Wait(); }
            public static class Root { public static void Handle(IWorker worker) => worker.Dispose(); }
            """));
        Assert.Equal("Thread.Sleep", finding.Call.Name);
    }

    [Fact]
    public void Resolve_LibraryInterfaceOverASourceType_ReachesItsImplementations()
    {
        var findings = Snippet.Findings("""
            public sealed class ServerConfig { }
            public sealed class WebClient : IObserver<ServerConfig>
            {
                public void OnNext(ServerConfig value) => Thread.Sleep(5);
                public void OnError(Exception error) { }
                public void OnCompleted() { }
            }
            public sealed class Other : IObserver<string>
            {
                public void OnNext(string value) => File.WriteAllText("x", value);
                public void OnError(Exception error) { }
                public void OnCompleted() { }
            }
            public static class Root
            {
                public static void Handle(List<IObserver<ServerConfig>> observers)
                {
                    var config = new ServerConfig();
                    foreach (var observer in observers) { observer.OnNext(config); }
                }
            }
            """);
        Assert.Equal("Thread.Sleep", Assert.Single(findings).Call.Name);
    }
}
