using System.Runtime.CompilerServices;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Tplab.Blocking;
using Tplab.Diagnose;
using Tplab.Diagnose.Capture;
using Tplab.Diagnose.Chains;
using Tplab.Diagnose.Code;
using Tplab.Diagnose.Stacks;
using static Tplab.Tests.Diagnose.Stacks;
using Tplab.Tests.Support;

namespace Tplab.Tests.Diagnose;

/// <summary>
/// The chain from the IL and the lines from the PDB, with this test assembly as the app (its IL and its portable PDB):
/// a frame's IL offset picks the call it made, what the JIT inlined is put back from the IL, each hop gets its line.
/// </summary>
[ParallelSafe]
public sealed class ChainTests : IDisposable
{
    private const string Here = "Tplab.Tests.Diagnose.";

    private static readonly string App = typeof(ChainSample).Assembly.Location;
    private readonly ApplicationCode _code = ApplicationCode.Load([App], new LibraryCode());
    private readonly SourceLines _lines = new([App]);

    [Fact]
    public void IlInstructions_EveryMethodOfAnAssembly_DecodesToItsEndWithEveryStringReadable()
    {
        // A wrongly sized operand (a switch's targets) throws the decoding off: what follows reads as garbage.
        using var pe = new System.Reflection.PortableExecutable.PEReader(File.OpenRead(App));
        var reader = System.Reflection.Metadata.PEReaderExtensions.GetMetadataReader(pe);
        var decoded = 0;
        foreach (var handle in reader.MethodDefinitions)
        {
            var rva = reader.GetMethodDefinition(handle).RelativeVirtualAddress;
            if (rva == 0)
            {
                continue;
            }
            var instructions = IlInstructions.Of(System.Reflection.Metadata.PEReaderExtensions.GetMethodBody(pe, rva));
            Assert.All(instructions.Where(i => i.Kind == IlKind.String), i => Assert.NotNull(IlInstructions.UserString(reader, i)));
            decoded++;
        }
        Assert.True(decoded > 1000, $"{decoded} method bodies");
    }

    [Fact]
    public void SourceLines_IlOffsetOfACall_IsTheLineOfThatCall()
    {
        var site = _code.FirstSite(Here + "ChainSample", "Dispatch", (type, method) => method == "ViaCarrier")!.Value;

        var line = _lines.At(site.At);

        Assert.Equal(ChainSample.CarrierLine, line!.Line);
        Assert.Equal("ChainTests.cs", Path.GetFileName(line.File));
        Assert.Null(_lines.Note);
    }

    [Fact]
    public void Grouper_FrameOffsetAtOneOfTwoCalls_FollowsThatCallThroughTheInlinedMethods()
    {
        // Dispatch calls ViaPost and ViaCarrier, both of which end in Thread.Sleep: the IL alone cannot tell them apart,
        // the frame's IL offset (the runtime's map of its return address) can.
        var site = _code.FirstSite(Here + "ChainSample", "Dispatch", (type, method) => method == "ViaCarrier")!.Value;
        var dispatch = Frame("app!" + Here + "ChainSample.Dispatch()") with { Code = site.At };

        var culprit = Single([.. Of(One(Sleep)), dispatch, .. Of(One(RequestDelegate), One(Kestrel), PoolBottom)]);

        Assert.Equal(["ChainSample.Dispatch", "ChainSample.ViaCarrier", "ChainSample.Carry"], culprit.Chain.Select(h => h.Name));
        Assert.Equal([HopSource.Stack, HopSource.Il, HopSource.Il], culprit.Chain.Select(h => h.From));
        Assert.Equal([ChainSample.CarrierLine, ChainSample.CarryLine, ChainSample.SleepLine], culprit.Chain.Select(h => h.At!.Line));
        Assert.Equal(Here + "ChainSample.Carry", culprit.UserFrame!.FullName);
        Assert.Equal(ChainSample.SleepLine, culprit.At!.Line);
    }

    [Fact]
    public void Grouper_NoOffsetAndTwoPathsInTheIl_GuessesNothing()
    {
        var culprit = Single(Of(One(Sleep), One("app!" + Here + "ChainSample.Dispatch()"), One(RequestDelegate), One(Kestrel), PoolBottom));

        Assert.Equal(["ChainSample.Dispatch"], culprit.Chain.Select(h => h.Name));
    }

    [Fact]
    public void Grouper_HandlerInlinedIntoItsInvoker_IsTheRootNamedByItsRoute()
    {
        // Everything of the endpoint went into the compiled invoker: the one handler whose IL reaches the call is the root.
        var culprit = Single(Of(One("System.Private.CoreLib!System.Threading.Tasks.Task.Wait()"), One(RequestDelegate), One(Kestrel), PoolBottom));

        Assert.Equal(["GET /api/things/{id} handler", "RegistrationSample.Load"], culprit.Chain.Select(h => h.Name));
        Assert.All(culprit.Chain, h => Assert.Equal(HopSource.Il, h.From));
        Assert.Equal("GET /api/things/{id}", culprit.Endpoint?.ToString());
        Assert.Equal(CodePlace.MinimalApi, culprit.Place);
        Assert.Contains("[ASP.NET Core's compiled invoker of GET /api/things/{id}]", culprit.Stack);
    }

    [Fact]
    public void Registrations_GroupsPassedOnAndFactories_AreReadWithRoutesAndServiceTypes()
    {
        var endpoints = _code.Endpoints.Where(e => e.Handler.Type.StartsWith(Here + "RegistrationSample", StringComparison.Ordinal)).Select(e => e.ToString()).ToList();

        Assert.Contains("GET /api/things/{id:int}", endpoints);
        Assert.Contains("POST /api/things/nested/{name}", endpoints);
        Assert.Contains("DELETE /health/things", endpoints);
        var factory = Assert.Single(_code.Services, s => s.Factory.Type.StartsWith(Here + "RegistrationSample", StringComparison.Ordinal));
        Assert.Equal(Here + "IRegisteredThing", factory.ServiceType);
    }

    [Fact]
    public void Grouper_FactoryRunByTheContainer_IsADiFactoryWithItsService()
    {
        const string resolver = "Microsoft.Extensions.DependencyInjection!Microsoft.Extensions.DependencyInjection.ServiceLookup.CallSiteRuntimeResolver.VisitFactory(class ServiceCallSite,value class RuntimeResolverContext)";
        var registered = _code.Services.Single(s => s.Factory.Type.StartsWith(Here + "RegistrationSample", StringComparison.Ordinal)).Factory;
        var factory = $"app!{registered.Type}.{registered.Method}(class System.IServiceProvider)";

        var culprit = Single(Of(One(Sleep), One("app!" + Here + "RegisteredThing.Warm()"), One(factory), One(resolver), One(RequestDelegate), One(Kestrel), PoolBottom));

        Assert.Equal(CodePlace.DiFactory, culprit.Place);
        Assert.Equal(Here + "IRegisteredThing", culprit.Service);
        Assert.Equal(["RegistrationSample.AddThings (lambda)", "RegisteredThing.Warm"], culprit.Chain.Select(h => h.Name));
    }

    [Fact]
    public void Grouper_ServiceBehindItsInterfaceInlinedIntoTheCaller_IsItsOneImplementation()
    {
        // PGO's guarded devirtualization inlines the one implementation an interface call sees into the caller.
        var culprit = Single(Of(One(Sleep), One("app!" + Here + "InterfaceSample.Handle()"), One(RequestDelegate), One(Kestrel), PoolBottom));

        Assert.Equal(["InterfaceSample.Handle", "SlowRepository.Load"], culprit.Chain.Select(h => h.Name));
        Assert.Equal([HopSource.Stack, HopSource.Il], culprit.Chain.Select(h => h.From));
        Assert.Equal(InterfaceSample.LoadLine, culprit.At!.Line);
    }

    [Fact]
    public void Grouper_TaskRunBodyInlinedIntoItsRunner_IsPutBackAboveTheMethodItCalled()
    {
        // At Tier 1 the lambda went into the Task's run (InnerInvoke, then into ExecuteWithThreadLocal's context run).
        var culprit = Single(Of(
            One(Sleep),
            One("app!" + Here + "TaskSample.Work()"),
            One("System.Private.CoreLib!System.Threading.ExecutionContext.RunFromThreadPoolDispatchLoop(class System.Threading.Thread,class System.Threading.ExecutionContext,class System.Threading.ContextCallback,class System.Object)"),
            One("System.Private.CoreLib!System.Threading.Tasks.Task.ExecuteWithThreadLocal(class System.Threading.Tasks.Task&,class System.Threading.Thread)"),
            PoolBottom));

        Assert.Equal(["TaskSample.Start (lambda)", "TaskSample.Work"], culprit.Chain.Select(h => h.Name));
        Assert.Equal([HopSource.Il, HopSource.Stack], culprit.Chain.Select(h => h.From));
    }

    [Fact]
    public void ActionRoute_AttributeRoutedAction_IsTheControllersRouteWithItsTokensReplaced()
    {
        var route = _code.ActionRoute(Here + "ThingsController", "Label");

        Assert.Equal("GET /api/Things/{id:int}/label", route?.ToString());
        Assert.Null(_code.ActionRoute(Here + "ChainSample", "Dispatch"));
    }

    private BlockedStackGroup Single(IReadOnlyList<StackFrame> frames)
    {
        var grouper = new BlockedStackGrouper(new StackClassifier(), 20, null, _code, _lines);
        grouper.Add(new ThreadObservation(1, 0, 1000, frames, ObservationSource.Sample));
        return grouper.Complete(TimeSpan.FromSeconds(1), 0.2).Groups.Single();
    }

    public void Dispose()
    {
        _code.Dispose();
        _lines.Dispose();
    }
}

/// <summary>A method with two calls that both end in Thread.Sleep, and the lines of its calls.</summary>
internal static class ChainSample
{
    public static readonly int CarrierLine = Line() + 7;
    public static readonly int CarryLine = Line() + 13;
    public static readonly int SleepLine = Line() + 14;

    public static void Dispatch()
    {
        ViaPost();
        ViaCarrier();
    }

    private static void ViaPost() => Post();

    private static void Post() => Thread.Sleep(1);

    private static void ViaCarrier() => Carry();

    private static void Carry() => Thread.Sleep(2);

    private static int Line([CallerLineNumber] int line = 0) => line;
}

internal interface IRegisteredThing
{
    void Use();
}

internal sealed class RegisteredThing : IRegisteredThing
{
    public static RegisteredThing Warm()
    {
        Thread.Sleep(1);
        return new RegisteredThing();
    }

    public void Use()
    {
    }
}

/// <summary>Registrations written as apps write them: a group, a group handed to another method, a factory.</summary>
internal static class RegistrationSample
{
    public static void Map(IEndpointRouteBuilder app)
    {
        var things = app.MapGroup("/api/things");
        things.MapGet("/{id:int}", (int id) => Load(id));
        MapNested(things.MapGroup("/nested"));
        app.MapGroup("/health").MapDelete("/things", () => "ok");
    }

    public static IServiceCollection AddThings(IServiceCollection services) =>
        services.AddSingleton<IRegisteredThing>(sp => RegisteredThing.Warm());

    private static void MapNested(IEndpointRouteBuilder nested) => nested.MapPost("/{name}", (string name) => name.Length);

    private static int Load(int id)
    {
        var task = Task.Delay(id);
        task.Wait();
        return id;
    }
}

internal interface IRepository
{
    int Load(int id);
}

internal sealed class SlowRepository : IRepository
{
    public int Load(int id)
    {
        Thread.Sleep(id);
        return id;
    }
}

/// <summary>A caller that reaches its repository through the interface.</summary>
internal static class InterfaceSample
{
    public static readonly int LoadLine = Line() - 8;

    private static readonly IRepository Repository = new SlowRepository();

    public static int Handle() => Repository.Load(1);

    private static int Line([CallerLineNumber] int line = 0) => line;
}

/// <summary>A Task.Run body that calls a method that sleeps.</summary>
internal static class TaskSample
{
    public static Task Start() => Task.Run(() => Work());

    public static void Work() => Thread.Sleep(1);
}

/// <summary>An attribute-routed controller.</summary>
[Microsoft.AspNetCore.Mvc.Route("api/[controller]")]
internal sealed class ThingsController : Microsoft.AspNetCore.Mvc.ControllerBase
{
    [Microsoft.AspNetCore.Mvc.HttpGet("{id:int}/label")]
    public string Label(int id) => id.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
