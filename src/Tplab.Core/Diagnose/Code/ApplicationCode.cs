using Tplab.Blocking;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose.Code;

/// <summary>A call in the application's IL: the callee, whether it is only handed on as a delegate, and where the call is.</summary>
public readonly record struct CallSite(string Type, string Method, bool Pointer, CodeSite At);

/// <summary>
/// The application's own code as diagnose reads it, to follow calls the JIT inlined: when a frame is missing from the
/// stack, the IL says which application method the known caller reaches that makes the blocking call, and where the
/// call is. One entry point over four parts, each testable alone: the assemblies and their IL
/// (<see cref="AssemblyIndex"/>), what types are to ASP.NET Core (<see cref="TypeRoles"/>), who calls what
/// (<see cref="CallGraph"/>) and what the IL registers (<see cref="ApplicationRegistrations"/>).
/// </summary>
public sealed class ApplicationCode : IDisposable
{
    private readonly AssemblyIndex _index;
    private readonly TypeRoles _types;
    private readonly CallGraph _calls;
    private readonly ApplicationRegistrations _registrations;

    private ApplicationCode(AssemblyIndex index)
    {
        _index = index;
        _types = new TypeRoles(index);
        _calls = new CallGraph(index, _types);
        _registrations = new ApplicationRegistrations(index);
    }

    /// <summary>Indexes the methods of the application assemblies among <paramref name="modulePaths"/>; an assembly that cannot be read is skipped.</summary>
    public static ApplicationCode Load(IEnumerable<string> modulePaths, LibraryCode library) => new(AssemblyIndex.Load(modulePaths, library));

    /// <summary>Methods indexed (0 when no application assembly could be read).</summary>
    public int MethodCount => _index.MethodCount;

    /// <summary>The application assemblies read, by path.</summary>
    public IEnumerable<string> ModulePaths => _index.ModulePaths;

    /// <inheritdoc cref="AsyncNames.AsyncMethodOf"/>
    public static (string Type, string Method)? AsyncMethodOf(string machineType) => AsyncNames.AsyncMethodOf(machineType);

    /// <inheritdoc cref="AsyncNames.Written"/>
    public static (string Type, string Method) Written(string type, string method) => AsyncNames.Written(type, method);

    /// <summary>True when <paramref name="typeName"/>.<paramref name="methodName"/> is an async method (its body is a state machine's MoveNext).</summary>
    public bool IsAsync(string typeName, string methodName) => _index.IsAsync(typeName + "." + methodName);

    /// <summary>True when the application's assemblies hold <paramref name="typeName"/>.<paramref name="methodName"/> (its IL can be read).</summary>
    public bool Has(string typeName, string methodName) => _index.Has(typeName + "." + methodName);

    /// <summary>Every indexed method named <paramref name="methodName"/> (for example every middleware's InvokeAsync), as (type, method).</summary>
    public IEnumerable<(string Type, string Method)> MethodsNamed(string methodName) =>
        _index.MethodKeys.Where(k => k.EndsWith("." + methodName, StringComparison.Ordinal))
            .Select(k => (k[..^(methodName.Length + 1)], methodName));

    /// <inheritdoc cref="AssemblyIndex.SitesIn"/>
    public IReadOnlyList<CallSite> SitesIn(string modulePath, int token) => _index.SitesIn(modulePath, token);

    /// <inheritdoc cref="CallGraph.Calls"/>
    public bool Calls(string typeName, string methodName, Func<string, string, bool> isTarget) => _calls.Calls(typeName, methodName, isTarget);

    /// <inheritdoc cref="CallGraph.FirstSite"/>
    public CallSite? FirstSite(string typeName, string methodName, Func<string, string, bool> isTarget) => _calls.FirstSite(typeName, methodName, isTarget);

    /// <inheritdoc cref="CallGraph.PathTo"/>
    public IReadOnlyList<(string Type, string Method)>? PathTo(string typeName, string methodName, Func<string, string, bool> isTarget, bool followDelegates = true) =>
        _calls.PathTo(typeName, methodName, isTarget, followDelegates);

    /// <inheritdoc cref="CallGraph.Reaches"/>
    public bool Reaches(string typeName, string methodName, Func<string, string, bool> isTarget, bool followDelegates = true) =>
        _calls.Reaches(typeName, methodName, isTarget, followDelegates);

    /// <inheritdoc cref="CallGraph.OnlyCaller"/>
    public (string Type, string Method)? OnlyCaller(Func<string, string, bool> isTarget) => _calls.OnlyCaller(isTarget);

    /// <inheritdoc cref="CallGraph.Implementation"/>
    public (string Type, string Method)? Implementation(string typeName, string methodName) => _calls.Implementation(typeName, methodName);

    /// <inheritdoc cref="CallGraph.DeclarerOf"/>
    public (string Type, string Method)? DeclarerOf(string typeName, string methodName) => _calls.DeclarerOf(typeName, methodName);

    /// <inheritdoc cref="TypeRoles.IsHostedService"/>
    public bool IsHostedService(string typeName) => _types.IsHostedService(typeName);

    /// <inheritdoc cref="TypeRoles.ActionCandidates"/>
    public IEnumerable<(string Type, string Method)> ActionCandidates(bool page) => _types.ActionCandidates(page);

    /// <inheritdoc cref="TypeRoles.IsAssignableTo"/>
    public bool IsAssignableTo(string typeName, string baseName) => _types.IsAssignableTo(typeName, baseName);

    /// <inheritdoc cref="TypeRoles.ActionRoutes"/>
    public IReadOnlyList<EndpointRegistration> ActionRoutes(string typeName, string methodName) => _types.ActionRoutes(typeName, methodName);

    /// <summary>The first of <see cref="ActionRoutes"/> (an attribute route before a conventional one), null for a method that is no action.</summary>
    public EndpointRegistration? ActionRoute(string typeName, string methodName) => ActionRoutes(typeName, methodName) is [var first, ..] ? first : null;

    /// <inheritdoc cref="ApplicationRegistrations.Endpoints"/>
    public IReadOnlyList<EndpointRegistration> Endpoints => _registrations.Endpoints;

    /// <inheritdoc cref="ApplicationRegistrations.TimerCallbacks"/>
    public IReadOnlyList<(string Type, string Method)> TimerCallbacks => _registrations.TimerCallbacks;

    /// <inheritdoc cref="ApplicationRegistrations.Services"/>
    public IReadOnlyList<ServiceRegistration> Services => _registrations.Services;

    /// <inheritdoc cref="ApplicationRegistrations.TaskBodies"/>
    public IReadOnlyList<(string Type, string Method)> TaskBodies => _registrations.TaskBodies;

    /// <summary>
    /// True when the application hands <paramref name="typeName"/>.<paramref name="methodName"/> (a lambda or a method
    /// group) to ASP.NET Core's <c>Map*</c> as a minimal API endpoint's handler.
    /// </summary>
    public bool IsEndpointHandler(string typeName, string methodName) => _registrations.HandlerOf(typeName, methodName) is not null;

    /// <inheritdoc cref="ApplicationRegistrations.HandlerOf"/>
    public EndpointRegistration? HandlerOf(string typeName, string methodName) => _registrations.HandlerOf(typeName, methodName);

    /// <inheritdoc cref="ApplicationRegistrations.FactoryOf"/>
    public ServiceRegistration? FactoryOf(string typeName, string methodName) => _registrations.FactoryOf(typeName, methodName);

    public void Dispose() => _index.Dispose();
}
