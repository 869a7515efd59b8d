using Microsoft.CodeAnalysis;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// Types compared by shape, as dispatch narrowing needs them: by name with their arguments (a symbol and its twin in
/// another project's compilation are the same), a type parameter nobody bound standing for any type. So
/// <c>EntityChanged&lt;TEntity&gt;</c> with <c>TEntity</c> unknown is every <c>EntityChanged&lt;X&gt;</c> and never
/// <c>OrderPlaced</c>.
/// </summary>
internal static class TypeShapes
{
    private const int MaxNesting = 6;

    /// <summary>
    /// Whether a value of <paramref name="want"/>'s shape can be a <paramref name="have"/> argument of a generic type
    /// whose parameter has <paramref name="variance"/>: equal for an invariant one, <paramref name="have"/> a base or
    /// interface of <paramref name="want"/> for <c>in</c>, the reverse for <c>out</c>.
    /// </summary>
    public static bool Fits(ITypeSymbol want, ITypeSymbol have, VarianceKind variance) => variance switch
    {
        VarianceKind.In => SelfAndSupertypes(want).Any(w => Matches(w, have)),
        VarianceKind.Out => SelfAndSupertypes(have).Any(h => Matches(want, h)),
        _ => Matches(want, have),
    };

    /// <summary>Whether two types can be the same type: equal names, equal arguments, a type parameter matching anything.</summary>
    public static bool Matches(ITypeSymbol a, ITypeSymbol b, int depth = 0)
    {
        if (depth > MaxNesting || a is ITypeParameterSymbol || b is ITypeParameterSymbol)
        {
            return true;
        }
        return (a, b) switch
        {
            (INamedTypeSymbol { IsGenericType: true } x, INamedTypeSymbol { IsGenericType: true } y) =>
                SymbolNames.MetadataName(x) == SymbolNames.MetadataName(y) && x.TypeArguments.Length == y.TypeArguments.Length
                && x.TypeArguments.Zip(y.TypeArguments).All(p => Matches(p.First, p.Second, depth + 1)),
            (IArrayTypeSymbol x, IArrayTypeSymbol y) => x.Rank == y.Rank && Matches(x.ElementType, y.ElementType, depth + 1),
            _ => Key(a) == Key(b),
        };
    }

    /// <summary>
    /// Whether an object of <paramref name="owner"/> (a type as declared) can be a <paramref name="receiver"/>'s generic
    /// type with arguments <paramref name="args"/>: some instantiation of it that owner has fits them, variance-aware
    /// (a consumer of <c>EventArgs</c> is one of <c>UserCreated</c>). True when owner does not name that type at all
    /// (a base reached through another project's twin: nothing to compare).
    /// </summary>
    public static bool CanBe(INamedTypeSymbol owner, INamedTypeSymbol receiver, IReadOnlyList<ITypeSymbol> args)
    {
        var seen = AsSupertype(owner, SymbolNames.MetadataName(receiver)).ToList();
        var variance = receiver.OriginalDefinition.TypeParameters.Select(p => p.Variance).ToArray();
        return seen.Count == 0 || seen.Any(s => s.TypeArguments.Length == args.Count
            && Enumerable.Range(0, args.Count).All(i => Fits(args[i], s.TypeArguments[i], variance[i])));
    }

    /// <summary>
    /// The type <paramref name="type"/> (a generic definition, or a type built over its parameters) sees as
    /// <paramref name="definitionName"/> among itself, its bases and its interfaces (<c>IRepository&lt;TEntity&gt;</c>
    /// for <c>Repository&lt;TEntity&gt;</c>), or null.
    /// </summary>
    public static IEnumerable<INamedTypeSymbol> AsSupertype(INamedTypeSymbol type, string definitionName) =>
        SelfAndSupertypes(type).OfType<INamedTypeSymbol>().Where(t => SymbolNames.MetadataName(t) == definitionName);

    /// <summary>The type, its base classes and its interfaces.</summary>
    public static IEnumerable<ITypeSymbol> SelfAndSupertypes(ITypeSymbol type)
    {
        for (ITypeSymbol? t = type; t is not null; t = t.BaseType)
        {
            yield return t;
        }
        foreach (var i in type.AllInterfaces)
        {
            yield return i;
        }
    }

    /// <summary>Whether a type mentions a type parameter (its own, or one of its arguments').</summary>
    public static bool MentionsTypeParameter(ITypeSymbol type, int depth = 0) => depth >= MaxNesting || type switch
    {
        ITypeParameterSymbol => true,
        INamedTypeSymbol n => n.TypeArguments.Any(a => MentionsTypeParameter(a, depth + 1)),
        IArrayTypeSymbol a => MentionsTypeParameter(a.ElementType, depth + 1),
        _ => false,
    };

    /// <summary>A type's name with its arguments, the same for a symbol and its twin in another project's compilation.</summary>
    public static string Key(ITypeSymbol type, int depth = 0) => depth > MaxNesting ? "?" : type switch
    {
        INamedTypeSymbol { IsGenericType: true } n => SymbolNames.MetadataName(n) + "<" + string.Join(",", n.TypeArguments.Select(a => Key(a, depth + 1))) + ">",
        INamedTypeSymbol n => SymbolNames.MetadataName(n),
        IArrayTypeSymbol a => Key(a.ElementType, depth + 1) + "[" + new string(',', a.Rank - 1) + "]",
        ITypeParameterSymbol p => "!" + p.Name,
        _ => type.ToDisplayString(),
    };
}
