using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>How one node reaches another.</summary>
public enum EdgeKind
{
    /// <summary>A direct call (method, constructor, accessor, local function).</summary>
    Call,

    /// <summary>An interface or virtual call, resolved to one of the solution's implementations.</summary>
    Implementation,

    /// <summary>A lambda or method group handed to a library method that runs it on the caller's thread (LINQ, a cache's factory).</summary>
    Callback,

    /// <summary>A <c>Task.Run</c>/<c>StartNew</c>/<c>QueueUserWorkItem</c> body: another pool thread runs it.</summary>
    TaskRun,

    /// <summary>A <c>ContinueWith</c> continuation: a pool thread runs it when the task completes.</summary>
    Continuation,

    /// <summary>A dependency-injection factory, run when the entry point's parameter or constructor asks for its service.</summary>
    Injection,
}

/// <summary>A call from one node to another at <paramref name="Site"/>.</summary>
/// <param name="Conditional">The call sits in a branch (if/else, switch, catch, <c>?.</c>, <c>??</c>, a cache miss).</param>
/// <param name="Alternatives">For an implementation edge, how many implementations the call may reach (1 otherwise).</param>
/// <param name="Via">For an implementation edge, the interface or virtual method called (<c>IOrderStore.Load</c>).</param>
/// <param name="Awaited">For a Task.Run edge, whether the caller awaits it (or returns it to be awaited).</param>
public sealed record Edge(CodeNode Target, Location Site, EdgeKind Kind, bool Conditional, int Alternatives = 1, string? Via = null, bool Awaited = false)
{
    /// <summary>The lock held around the call in the caller, when there is one.</summary>
    public int? LockId { get; init; }

    /// <summary>
    /// For an implementation edge, what narrowed the implementations to those that can be there
    /// (<see cref="DispatchTargets.Registered"/>, <see cref="DispatchTargets.ReceiverType"/>), or null: every
    /// implementation in the solution, a guess.
    /// </summary>
    public string? Basis { get; init; }

    /// <summary>For a call of a generic method, its type arguments as the caller gives them (<c>T</c>, <c>UserCreated</c>).</summary>
    public System.Collections.Immutable.ImmutableArray<ITypeSymbol> TypeArguments { get; init; }

    /// <summary>
    /// For an implementation edge, the receiver's type when a method's type parameter is in it
    /// (<c>IEventConsumer&lt;T&gt;</c>): a walk that knows <c>T</c> narrows the call (<see cref="Instantiation.Narrow"/>).
    /// </summary>
    public INamedTypeSymbol? GenericReceiver { get; init; }

    /// <summary>
    /// The type the called method is a member of as the caller names it, when it is generic (<c>Repository&lt;Order&gt;</c>,
    /// <c>IRepository&lt;TEntity&gt;</c>): a walk binds the target class's type parameters from it (<see cref="Instantiation.Across"/>).
    /// </summary>
    public INamedTypeSymbol? CalledOn { get; init; }

    /// <summary>For a call on another object, its static type when it is a class: the callee's <c>this</c> when nothing derives from it.</summary>
    public INamedTypeSymbol? ReceiverClass { get; init; }

    /// <summary>
    /// For a call on an object typed by a type parameter (<c>T job</c> in <c>Run&lt;T&gt;() where T : IJob</c>), that
    /// parameter and the method called: a walk that knows <c>T</c> keeps what <c>T</c> runs and makes it the callee's
    /// <c>this</c> (<see cref="Instantiation.NarrowTypeParameter"/>).
    /// </summary>
    public TypeParameterCall? OnTypeParameter { get; init; }

    /// <summary>The call is made on <c>this</c> or <c>base</c> (written or implicit): the callee runs on the caller's object.</summary>
    public bool OnThis { get; init; }

    /// <summary>
    /// For the edges of a virtual call on <c>this</c> that reach several overrides, the method called: a walk that
    /// knows the concrete type of <c>this</c> keeps only the override that type runs.
    /// </summary>
    public IMethodSymbol? VirtualOnThis { get; init; }
}

/// <summary>A call into a library that holds the pool thread, at <paramref name="Site"/>.</summary>
/// <param name="Why">Why it is uncertain, when it is (<c>the stream's type is not known from source</c>).</param>
public sealed record BlockingSite(BlockingCall Call, Location Site, bool Conditional, Certainty Certainty, CallContext Context, string? Why = null)
{
    /// <summary>The lock held around the call in the same method, when there is one.</summary>
    public int? LockId { get; init; }

    /// <summary>
    /// Why the call is judged to block, in words a reviewer can check: the receiver's type, the query's provider, the
    /// stream's origin (<c>runs a database query: DbSet&lt;Order&gt; (EF Core)</c>, <c>receiver NpgsqlCommand</c>).
    /// </summary>
    public string? Evidence { get; init; }
}

/// <summary>A <c>lock</c> (or <c>Monitor.Enter</c>) on <paramref name="Key"/> at <paramref name="Site"/>.</summary>
/// <param name="Key">What is locked, in a form shared by every method that locks the same object (<c>F:Ns.Cache._gate</c>).</param>
/// <param name="Description">What is locked, for people: <c>Cache._gate</c>.</param>
public sealed record LockSite(int Id, string Key, string Description, Location Site, bool Conditional);

/// <summary>What one node does: the calls it makes into the solution's code, the blocking calls and the locks it takes.</summary>
public sealed class NodeFacts
{
    public List<Edge> Edges { get; } = [];

    public List<BlockingSite> Blocking { get; } = [];

    public List<LockSite> Locks { get; } = [];

    /// <summary>Calls source could not resolve (a package missing, an error type): neither followed nor judged, counted as unknown.</summary>
    public List<Location> Unknown { get; } = [];

    public static NodeFacts Empty { get; } = new();
}
