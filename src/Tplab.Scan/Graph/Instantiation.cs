using Microsoft.CodeAnalysis;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// What a walk knows of the types one body runs with on one way in: the type arguments of its generic method and class
/// (<c>Publish&lt;UserCreated&gt;(e)</c> makes the <c>T</c> of <c>Publish&lt;T&gt;</c> <c>UserCreated</c>;
/// <c>IRepository&lt;Order&gt;.Save</c> makes the <c>TEntity</c> of <c>Repository&lt;TEntity&gt;</c> <c>Order</c>), and the
/// concrete type of <c>this</c>. A walk carries it from a call into the callee's body, so that an interface call there on
/// <c>IEventConsumer&lt;T&gt;</c> follows only the implementations of <c>IEventConsumer&lt;UserCreated&gt;</c>, and a
/// virtual call on <c>this</c> only the override the concrete type runs. A type argument may be known in part
/// (<c>EntityChanged&lt;TEntity&gt;</c> with <c>TEntity</c> unknown): its unknown parameters match any type
/// (<see cref="TypeShapes"/>). Types are compared by name: the caller, the callee and the implementations may come from
/// three projects' compilations. Equal when they bind the same names and the same <c>this</c>.
/// </summary>
internal sealed partial class Instantiation : IEquatable<Instantiation>
{
    private readonly (string Param, ITypeSymbol Arg)[] _bound;

    private Instantiation((string Param, ITypeSymbol Arg)[] bound, INamedTypeSymbol? self)
    {
        _bound = bound;
        This = self;
        Key = string.Join(";", bound.Select(b => b.Param + "=" + TypeShapes.Key(b.Arg))) + (self is null ? "" : "|this=" + TypeShapes.Key(self));
    }

    /// <summary>The concrete type of <c>this</c> in the body, when the walk knows it.</summary>
    public INamedTypeSymbol? This { get; }

    /// <summary>What it binds, as a reader writes it: <c>T = UserCreated</c>.</summary>
    public string Display => string.Join(", ", _bound.Select(b => $"{b.Param[(b.Param.LastIndexOf('#') + 1)..]} = {b.Arg.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat)}"));

    private string Key { get; }

    /// <summary>
    /// What an entry point's walk starts with: <paramref name="self"/> as the concrete type of <c>this</c> (null: not
    /// known), and the type arguments it gives the entry point's own generic class (an action inherited from
    /// <c>CrudController&lt;Order&gt;</c>).
    /// </summary>
    public static Instantiation? Root(CodeNode node, INamedTypeSymbol? self, CallGraph graph)
    {
        if (self is null)
        {
            return null;
        }
        var bound = new List<(string, ITypeSymbol)>();
        if (node.Symbol.ContainingType is { IsGenericType: true } owner && graph.UsesTypeArguments(node))
        {
            BindClass(owner.OriginalDefinition, self, bound);
        }
        return bound.Count > 0 || graph.UsesThis(node) ? new Instantiation([.. bound], self) : null;
    }

    /// <summary>
    /// What <paramref name="edge"/>'s target runs with when it is taken from a body that runs with
    /// <paramref name="from"/>: a generic method's type parameters bound to the call's type arguments and a generic
    /// class's to the type the call names it by (both through the caller's own binds), <c>this</c> kept across a call on
    /// <c>this</c>, a lambda or local function keeping its method's; null when nothing is known that the target uses.
    /// </summary>
    public static Instantiation? Across(Instantiation? from, Edge edge, CallGraph graph)
    {
        var target = edge.Target;
        // The callee's this: the caller's across a call on this; else the receiver's class, or the callee's own, when
        // nothing in the solution derives from it (a library cannot).
        var self = !graph.UsesThis(target) ? null
            : edge.OnThis || target.IsLambda ? from?.This
            : ExactOf(from, edge.OnTypeParameter, graph.Index) ?? Exact(edge.ReceiverClass, graph.Index)
                ?? Exact(target.Symbol.IsStatic ? null : target.Symbol.ContainingType, graph.Index);
        if (from is null && edge.TypeArguments.IsDefaultOrEmpty && edge.CalledOn is null && self is null)
        {
            return null;
        }
        var usesTypes = graph.UsesTypeArguments(target);
        if (target.IsLambda)
        {
            return usesTypes || self is not null ? from : null;
        }
        var bound = new List<(string, ITypeSymbol)>();
        if (usesTypes)
        {
            var parameters = target.Symbol.TypeParameters;
            if (!edge.TypeArguments.IsDefaultOrEmpty && parameters.Length == edge.TypeArguments.Length)
            {
                for (var i = 0; i < parameters.Length; i++)
                {
                    if (Resolve(from, edge.TypeArguments[i]) is not ITypeParameterSymbol and { } arg)
                    {
                        bound.Add((ParamKey(parameters[i]), arg));
                    }
                }
            }
            var seenAs = edge.CalledOn is { } on ? Resolve(from, on) as INamedTypeSymbol : edge.OnThis ? from?.This : null;
            if (target.Symbol.ContainingType is { IsGenericType: true } owner && seenAs is not null)
            {
                BindClass(owner.OriginalDefinition, seenAs, bound);
            }
        }
        return bound.Count > 0 || self is not null ? new Instantiation([.. bound], self) : null;
    }

    /// <summary>The concrete type of an object of static type <paramref name="type"/> when it can only be that type: a class of the source nothing derives from.</summary>
    public static INamedTypeSymbol? Exact(INamedTypeSymbol? type, SourceIndex index) =>
        type is { TypeKind: TypeKind.Class, IsAbstract: false } && index.IsSource(type) && !index.IsExtended(type) ? type : null;

    /// <summary>
    /// The implementation edges of one call on a receiver typed by a type parameter (<c>IEventConsumer&lt;T&gt;</c>,
    /// <c>Repository&lt;TEntity&gt;</c>), narrowed to those whose type can be the receiver as this instantiation makes
    /// it; null when it says nothing about that receiver (every edge stays as it is).
    /// </summary>
    public List<Edge>? Narrow(IReadOnlyList<Edge> call)
    {
        var receiver = call[0].GenericReceiver!;
        var args = receiver.TypeArguments.Select(a => Resolve(this, a)).ToArray();
        if (args.All(a => a is ITypeParameterSymbol))
        {
            return null;
        }
        var kept = call.Where(e => e.Target.Symbol.ContainingType is not { } owner || TypeShapes.CanBe(owner, receiver, args)).ToList();
        var basis = $"the type argument {Display}" + (call[0].Basis is { } b ? ", " + b : "");
        return [.. kept.Select(e => e with { Alternatives = kept.Count, Basis = basis })];
    }

    /// <summary>
    /// The edges of one virtual call on <c>this</c>, narrowed to the override the concrete type of <c>this</c> runs
    /// (an inherited action's <c>this.Load()</c> in the controller that inherited it); null when it is not known.
    /// </summary>
    public List<Edge>? NarrowThis(IReadOnlyList<Edge> call)
    {
        if (This is null || Dispatch.RunBy(This, call[0].VirtualOnThis!) is not { } runs)
        {
            return null;
        }
        var key = SymbolNames.Key(runs);
        var kept = call.Where(e => SymbolNames.Key(e.Target.Symbol) == key).ToList();
        return kept.Count == 0 ? null : [.. kept.Select(e => e with { Alternatives = 1, Basis = $"this is {This.Name}" })];
    }

    public bool Equals(Instantiation? other) => other is not null && other.Key == Key;

    public override bool Equals(object? obj) => Equals(obj as Instantiation);

    public override int GetHashCode() => StringComparer.Ordinal.GetHashCode(Key);

    // The class type parameters of owner (a generic definition) that seenAs fixes: owner seen as seenAs's generic type
    // (Repository<TEntity> as IRepository<Order>), or seenAs seen as owner's (OrderRepository as Repository<Order>).
    private static void BindClass(INamedTypeSymbol owner, INamedTypeSymbol seenAs, List<(string, ITypeSymbol)> bound)
    {
        if (TypeShapes.AsSupertype(owner, SymbolNames.MetadataName(seenAs)).FirstOrDefault() is { } pattern)
        {
            Unify(owner, pattern, seenAs, bound, 0);
        }
        else if (TypeShapes.AsSupertype(seenAs, SymbolNames.MetadataName(owner)).FirstOrDefault() is { } actual)
        {
            Unify(owner, owner, actual, bound, 0);
        }
    }

    private static void Unify(INamedTypeSymbol owner, ITypeSymbol pattern, ITypeSymbol actual, List<(string, ITypeSymbol)> bound, int depth)
    {
        if (depth > 6)
        {
            return;
        }
        if (pattern is ITypeParameterSymbol p && p.DeclaringType is { } declaring && SymbolNames.MetadataName(declaring) == SymbolNames.MetadataName(owner))
        {
            var key = ParamKey(p);
            if (actual is not ITypeParameterSymbol && !bound.Any(b => b.Item1 == key))
            {
                bound.Add((key, actual));
            }
            return;
        }
        if (pattern is INamedTypeSymbol { IsGenericType: true } x && actual is INamedTypeSymbol { IsGenericType: true } y && x.TypeArguments.Length == y.TypeArguments.Length)
        {
            for (var i = 0; i < x.TypeArguments.Length; i++)
            {
                Unify(owner, x.TypeArguments[i], y.TypeArguments[i], bound, depth + 1);
            }
        }
    }

    // The type with what the bindings know put in: a bound type parameter is its argument, an unbound one stays (it
    // matches any type), a generic type is rebuilt over its resolved arguments.
    private static ITypeSymbol Resolve(Instantiation? bindings, ITypeSymbol type, int depth = 0)
    {
        if (type is ITypeParameterSymbol p)
        {
            var key = ParamKey(p);
            return bindings?._bound.FirstOrDefault(b => b.Param == key).Arg ?? p;
        }
        if (depth > 6 || bindings is null || type is not INamedTypeSymbol { IsGenericType: true } named || named.ContainingType is { IsGenericType: true }
            || !TypeShapes.MentionsTypeParameter(named))
        {
            return type;
        }
        var args = named.TypeArguments.Select(a => Resolve(bindings, a, depth + 1)).ToArray();
        try
        {
            return named.OriginalDefinition.Construct(args);
        }
        catch (ArgumentException)
        {
            return type;
        }
    }

    private static string ParamKey(ITypeParameterSymbol p) => p.DeclaringMethod is { } m
        ? SymbolNames.Key(m) + "#" + p.Name
        : "T:" + (p.DeclaringType is { } t ? SymbolNames.MetadataName(t) : "") + "#" + p.Name;
}
