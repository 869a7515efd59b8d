using Microsoft.CodeAnalysis;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// The type arguments a generic method runs with on one way in: <c>Publish&lt;UserCreated&gt;(e)</c> makes the
/// <c>T</c> of <c>Publish&lt;T&gt;</c> (and of what it hands <c>T</c> on to) <c>UserCreated</c>. A walk carries it from
/// a call to the generic method's body, so that an interface call there on <c>IEventConsumer&lt;T&gt;</c> follows only the
/// implementations of <c>IEventConsumer&lt;UserCreated&gt;</c>. Types are compared by name: the caller, the generic
/// method and the implementations may come from three projects' compilations. Equal when they bind the same names.
/// </summary>
internal sealed class Instantiation : IEquatable<Instantiation>
{
    private readonly (string Param, ITypeSymbol Arg)[] _bound;

    private Instantiation((string Param, ITypeSymbol Arg)[] bound)
    {
        _bound = bound;
        Key = string.Join(";", bound.Select(b => b.Param + "=" + TypeKey(b.Arg)));
    }

    /// <summary>What it binds, as a reader writes it: <c>T = UserCreated</c>.</summary>
    public string Display => string.Join(", ", _bound.Select(b => $"{b.Param[(b.Param.LastIndexOf('#') + 1)..]} = {b.Arg.Name}"));

    private string Key { get; }

    /// <summary>
    /// The instantiation <paramref name="target"/> runs with when <paramref name="edge"/> is taken from a body that
    /// runs with <paramref name="from"/>: a generic method's type parameters bound to the call's type arguments (those
    /// the caller's own binds resolved), a lambda or local function keeping its method's; null when nothing is known.
    /// </summary>
    public static Instantiation? Across(Instantiation? from, Edge edge, CallGraph graph)
    {
        var target = edge.Target;
        if ((from is null && edge.TypeArguments.IsDefaultOrEmpty) || !graph.UsesTypeArguments(target))
        {
            return null;
        }
        if (target.IsLambda)
        {
            return from;
        }
        var parameters = target.Symbol.TypeParameters;
        if (edge.TypeArguments.IsDefaultOrEmpty || parameters.Length != edge.TypeArguments.Length)
        {
            return null;
        }
        var bound = new List<(string, ITypeSymbol)>();
        for (var i = 0; i < parameters.Length; i++)
        {
            if (Resolve(from, edge.TypeArguments[i]) is { } arg)
            {
                bound.Add((ParamKey(parameters[i]), arg));
            }
        }
        return bound.Count > 0 ? new Instantiation([.. bound]) : null;
    }

    /// <summary>
    /// The implementation edges of one call on a receiver typed by a type parameter (<c>IEventConsumer&lt;T&gt;</c>),
    /// narrowed to those whose type implements the receiver as this instantiation makes it; null when it says nothing
    /// about that receiver (every edge stays as it is).
    /// </summary>
    public List<Edge>? Narrow(IReadOnlyList<Edge> call)
    {
        var receiver = call[0].GenericReceiver!;
        var args = receiver.TypeArguments.Select(a => Resolve(this, a)).ToArray();
        if (args.All(a => a is null))
        {
            return null;
        }
        var name = SymbolNames.MetadataName(receiver);
        var variance = receiver.OriginalDefinition.TypeParameters.Select(p => p.Variance).ToArray();
        var kept = call.Where(e => e.Target.Symbol.ContainingType is not { } owner || owner.IsGenericType
            || !owner.AllInterfaces.Any(i => SymbolNames.MetadataName(i) == name)
            || owner.AllInterfaces.Any(i => SymbolNames.MetadataName(i) == name && Fits(i, args, variance))).ToList();
        var basis = $"the type argument {Display}" + (call[0].Basis is { } b ? ", " + b : "");
        return [.. kept.Select(e => e with { Alternatives = kept.Count, Basis = basis })];
    }

    public bool Equals(Instantiation? other) => other is not null && other.Key == Key;

    public override bool Equals(object? obj) => Equals(obj as Instantiation);

    public override int GetHashCode() => StringComparer.Ordinal.GetHashCode(Key);

    /// <summary>Whether a type mentions a method's type parameter (<c>IEventConsumer&lt;T&gt;</c> inside <c>Publish&lt;T&gt;</c>).</summary>
    public static bool MentionsMethodTypeParameter(ITypeSymbol type, int depth = 0) => depth < 6 && type switch
    {
        ITypeParameterSymbol p => p.DeclaringMethod is not null,
        INamedTypeSymbol n => n.TypeArguments.Any(a => MentionsMethodTypeParameter(a, depth + 1)),
        IArrayTypeSymbol a => MentionsMethodTypeParameter(a.ElementType, depth + 1),
        _ => false,
    };

    // A concrete type stays; a method's type parameter is what the instantiation binds it to; anything else is not known.
    private static ITypeSymbol? Resolve(Instantiation? bindings, ITypeSymbol type)
    {
        if (type is ITypeParameterSymbol p)
        {
            var key = ParamKey(p);
            return bindings?._bound.FirstOrDefault(b => b.Param == key).Arg;
        }
        return MentionsAnyTypeParameter(type) ? null : type;
    }

    // Whether an implemented interface (IEventConsumer<X>) can be the receiver (IEventConsumer<A>): X is A, or for an
    // `in` parameter a base of A (a consumer of EventArgs consumes A), for an `out` one a type deriving from A.
    private static bool Fits(INamedTypeSymbol implemented, ITypeSymbol?[] args, VarianceKind[] variance)
    {
        for (var i = 0; i < args.Length && i < implemented.TypeArguments.Length; i++)
        {
            var (want, have) = (args[i], implemented.TypeArguments[i]);
            if (want is null || MentionsAnyTypeParameter(have))
            {
                continue;
            }
            var fits = variance[i] switch
            {
                VarianceKind.In => SelfAndBases(want).Contains(TypeKey(have)),
                VarianceKind.Out => SelfAndBases(have).Contains(TypeKey(want)),
                _ => TypeKey(want) == TypeKey(have),
            };
            if (!fits)
            {
                return false;
            }
        }
        return true;
    }

    private static HashSet<string> SelfAndBases(ITypeSymbol type)
    {
        var keys = new HashSet<string>(StringComparer.Ordinal) { TypeKey(type), "System.Object" };
        for (var t = type.BaseType; t is not null; t = t.BaseType)
        {
            keys.Add(TypeKey(t));
        }
        keys.UnionWith(type.AllInterfaces.Select(i => TypeKey(i)));
        return keys;
    }

    private static bool MentionsAnyTypeParameter(ITypeSymbol type, int depth = 0) => depth >= 6 || type switch
    {
        ITypeParameterSymbol => true,
        INamedTypeSymbol n => n.TypeArguments.Any(a => MentionsAnyTypeParameter(a, depth + 1)),
        IArrayTypeSymbol a => MentionsAnyTypeParameter(a.ElementType, depth + 1),
        _ => false,
    };

    private static string ParamKey(ITypeParameterSymbol p) =>
        (p.DeclaringMethod is { } m ? SymbolNames.Key(m) : "") + "#" + p.Name;

    // A type's name with its arguments, the same for a symbol and its twin in another project's compilation.
    private static string TypeKey(ITypeSymbol type, int depth = 0) => depth > 6 ? "?" : type switch
    {
        INamedTypeSymbol { IsGenericType: true } n => SymbolNames.MetadataName(n) + "<" + string.Join(",", n.TypeArguments.Select(a => TypeKey(a, depth + 1))) + ">",
        INamedTypeSymbol n => SymbolNames.MetadataName(n),
        IArrayTypeSymbol a => TypeKey(a.ElementType, depth + 1) + "[" + new string(',', a.Rank - 1) + "]",
        ITypeParameterSymbol p => "!" + p.Name,
        _ => type.ToDisplayString(),
    };
}
