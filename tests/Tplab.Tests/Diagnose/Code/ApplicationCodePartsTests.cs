using Tplab.Blocking;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Stacks;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose.Code;

/// <summary>
/// The parts of <see cref="ApplicationCode"/> on their own (this test assembly stands in for the app): the compiler's
/// state-machine names, the assemblies' index, what types are to ASP.NET Core, the call graph and the registrations.
/// </summary>
[ParallelSafe]
public sealed class ApplicationCodePartsTests : IDisposable
{
    private readonly AssemblyIndex _index = AssemblyIndex.Load([typeof(PartsShop).Assembly.Location], new LibraryCode());

    public void Dispose() => _index.Dispose();

    private static readonly string Shop = typeof(PartsShop).FullName!;

    [Theory]
    [InlineData("Shop.Api+<Load>d__3", "Shop.Api", "Load")]
    [InlineData("Shop.Endpoints+<>c+<<Map>b__2_0>d", "Shop.Endpoints+<>c", "<Map>b__2_0")]
    [InlineData("Shop.Api+<Load>d__3`1", "Shop.Api", "Load")]
    public void AsyncNames_StateMachine_IsItsAsyncMethod(string machine, string type, string method)
    {
        Assert.Equal((type, method), AsyncNames.AsyncMethodOf(machine));
        Assert.Equal((type, method), AsyncNames.Written(machine, "MoveNext"));
        Assert.True(AsyncNames.IsMoveNext(machine + ".MoveNext"));
    }

    [Theory]
    [InlineData("Shop.Api")]
    [InlineData("Shop.Api+<>c")]
    [InlineData("<Load>d__3")]
    public void AsyncNames_OtherTypes_AreNoStateMachine(string type)
    {
        Assert.Null(AsyncNames.AsyncMethodOf(type));
        Assert.Equal((type, "MoveNext"), AsyncNames.Written(type, "MoveNext"));
    }

    [Fact]
    public void Index_AsyncMethod_HasItsStateMachineBody()
    {
        Assert.True(_index.Has(Shop + "." + nameof(PartsShop.FetchAsync)));
        Assert.True(_index.IsAsync(Shop + "." + nameof(PartsShop.FetchAsync)));
        Assert.False(_index.IsAsync(Shop + "." + nameof(PartsShop.Load)));
        Assert.Contains(_index.BodiesOf(Shop + "." + nameof(PartsShop.FetchAsync)), b => b.StateMachine);
        Assert.Contains(_index.ModulePaths, p => p == typeof(PartsShop).Assembly.Location);
    }

    [Fact]
    public void TypeRoles_HostedServiceAndController_AreKnownThroughTheirBases()
    {
        var roles = new TypeRoles(_index);

        Assert.True(roles.IsHostedService(typeof(PartsWorker).FullName!));
        Assert.False(roles.IsHostedService(Shop));
        Assert.Contains((typeof(PartsController).FullName!, nameof(PartsController.Get)), roles.ActionCandidates(page: false));
        Assert.DoesNotContain(roles.ActionCandidates(page: false), m => m.Type == Shop);
        Assert.True(roles.IsAssignableTo(typeof(PartsStore).FullName!, typeof(IPartsStore).FullName!));
    }

    [Fact]
    public void CallGraph_FollowsAnInterfaceToItsOneImplementation()
    {
        var calls = new CallGraph(_index, new TypeRoles(_index));
        bool IsSleep(string type, string method) => BlockingCallCatalogue.Match(new StackFrame("", type, method))?.Name == "Thread.Sleep";

        Assert.Equal((typeof(PartsStore).FullName!, nameof(PartsStore.Find)), calls.Implementation(typeof(IPartsStore).FullName!, nameof(IPartsStore.Find)));
        Assert.Equal([(typeof(PartsStore).FullName!, nameof(PartsStore.Find))], calls.PathTo(Shop, nameof(PartsShop.Handler), IsSleep));
        Assert.True(calls.Reaches(Shop, nameof(PartsShop.Handler), IsSleep));
        Assert.False(calls.Calls(Shop, nameof(PartsShop.Handler), IsSleep));
    }

    [Fact]
    public void CallGraph_AnAsyncMethodsOwnAwait_IsNoBlockingCall()
    {
        var calls = new CallGraph(_index, new TypeRoles(_index));
        bool IsGetResult(string type, string method) => BlockingCallCatalogue.Match(new StackFrame("", type, method))?.Name == "GetAwaiter().GetResult()";

        Assert.True(calls.Calls(Shop, nameof(PartsShop.Load), IsGetResult));
        Assert.False(calls.Calls(Shop, nameof(PartsShop.FetchAsync), IsGetResult));
        Assert.True(CallGraph.IsAwaiterResult("System.Runtime.CompilerServices.TaskAwaiter`1", "GetResult"));
    }

    [Fact]
    public void Registrations_TaskRunBody_IsFoundAndItsDeclarerNamed()
    {
        var registrations = new ApplicationRegistrations(_index);
        var calls = new CallGraph(_index, new TypeRoles(_index));

        var body = Assert.Single(registrations.TaskBodies, b => b.Type.StartsWith(Shop, StringComparison.Ordinal));
        Assert.Equal((Shop, nameof(PartsShop.Offload)), calls.DeclarerOf(body.Type, body.Method));
    }
}

internal interface IPartsStore
{
    int Find(int id);
}

internal sealed class PartsStore : IPartsStore
{
    public int Find(int id)
    {
        Thread.Sleep(1);
        return id;
    }
}

internal static class PartsShop
{
    private static readonly IPartsStore Store = new PartsStore();

    public static int Handler(int id) => Store.Find(id) + 1;

    public static int Load(int id) => FetchAsync(id).GetAwaiter().GetResult();

    public static async Task<int> FetchAsync(int id)
    {
        await Task.Yield();
        return id;
    }

    public static Task<int> Offload(int id) => Task.Run(() => Store.Find(id));
}

internal sealed class PartsWorker : Microsoft.Extensions.Hosting.BackgroundService
{
    protected override Task ExecuteAsync(CancellationToken stoppingToken) => Task.CompletedTask;
}

internal sealed class PartsController : Microsoft.AspNetCore.Mvc.ControllerBase
{
    public int Get(int id) => id;
}
