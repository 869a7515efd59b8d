using Microsoft.CodeAnalysis;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>Where a call goes, and what narrowed it there (null: nothing did, every implementation is a guess).</summary>
internal sealed record DispatchTargets(List<CodeNode> Nodes, string? Basis)
{
    public const string Registered = "registered in DI";
    public const string ReceiverType = "the receiver's type";

    /// <summary>DI's registrations choose one when the app starts (configuration, environment): each deployment runs one on every call.</summary>
    public const string Configured = "registered in DI, one chosen at startup by configuration";

    /// <summary>Whether an edge's implementations are alternatives of one deployment's choice, not a guess among several per call.</summary>
    public static bool ChosenAtStartup(string? basis) => basis?.Contains(Configured, StringComparison.Ordinal) == true;
}

/// <summary>
/// Where a call goes: the method itself, or the implementations in the solution a virtual or interface call may
/// reach, narrowed by the receiver's type when source shows it and by what DI can hand out for it.
/// </summary>
internal static class Dispatch
{
    /// <summary>The solution's methods a call may run: the method itself, or every implementation a virtual call may reach.</summary>
    public static List<CodeNode> Targets(SourceIndex index, IMethodSymbol definition, IOperation? receiver, bool isVirtual) =>
        Resolve(index, definition, receiver, isVirtual).Nodes;

    /// <summary>The solution's methods a call may run, with what narrowed them.</summary>
    public static DispatchTargets Resolve(SourceIndex index, IMethodSymbol definition, IOperation? receiver, bool isVirtual)
    {
        var dispatches = isVirtual && (definition.IsVirtual || definition.IsAbstract || definition.IsOverride || definition.ContainingType?.TypeKind == TypeKind.Interface);
        var isSource = index.IsSource(definition);
        if (!dispatches)
        {
            return new(isSource && index.NodeFor(definition) is { } direct ? [direct] : [], null);
        }
        var receiverType = Ops.Unwrap(receiver)?.Type as INamedTypeSymbol;
        // A library virtual (Stream.Read, IDisposable.Dispose) is followed into the solution only when the receiver's
        // own type is the solution's: otherwise every Dispose would reach every IDisposable the solution declares.
        // A library interface over the solution's own type (IObserver<ServerConfig>.OnNext) reaches the solution's
        // implementations of that instantiation only.
        if (!isSource && (receiverType is null || !index.IsSource(receiverType)) && !Implementers.OverSourceType(index, receiverType))
        {
            return new([], null);
        }
        string? basis = null;
        var candidates = WithOverrides(index, index.Implementations(definition));
        if (isSource && !definition.IsAbstract && definition.ContainingType?.TypeKind != TypeKind.Interface)
        {
            candidates.Add(definition);
        }
        // IHandler<OrderPlaced>.Handle, IHandle<EntityChanged<TEntity>>.Handle, Repository<Order>.Query: only the types
        // whose own instantiation of the receiver's generic type can be it (a type parameter stands for any type).
        if (receiverType is { IsGenericType: true, TypeKind: TypeKind.Interface or TypeKind.Class })
        {
            candidates = [.. candidates.Where(c => c.ContainingType is not { } owner || TypeShapes.CanBe(owner, receiverType, receiverType.TypeArguments))];
        }
        // IDisposable.Dispose called on an IHlsSessionWorker: what the receiver interface's implementers run, not every Dispose.
        if (receiverType is not null && Implementers.Inherited(definition, receiverType) && Implementers.Of(index, receiverType) is { Count: > 0 } implementers)
        {
            candidates = [.. candidates.Where(c => implementers.Any(p => Runs(p, definition, c)))];
        }
        if (receiverType is { TypeKind: TypeKind.Class or TypeKind.Struct })
        {
            var visible = Visible(definition, receiverType);
            candidates = [.. candidates.Where(c => DerivesFrom(c.ContainingType, receiverType) || SymbolEqualityComparer.Default.Equals(c, visible))];
            if (receiverType.IsSealed || receiverType.TypeKind == TypeKind.Struct)
            {
                candidates = visible is not null ? [visible] : candidates;
                basis = DispatchTargets.ReceiverType;
            }
        }
        // What DI can hand out for the receiver's type (and what the solution constructs itself): only those run.
        if (basis is null && receiverType is not null && candidates.Count > 0 && index.Services.PossibleTypes(receiverType) is { } possible)
        {
            candidates = [.. candidates.Where(c => possible.Any(p => Runs(p, definition, c)))];
            basis = index.Services.ChosenAtStartup(receiverType) ? DispatchTargets.Configured : DispatchTargets.Registered;
        }
        return new([.. candidates.Select(c => index.NodeFor(c)).OfType<CodeNode>().Distinct()], basis);
    }

    // The implementations, and the overrides of those that are abstract or virtual: an interface member implemented by
    // an abstract member of a base class goes on to the overrides in its subclasses (a plugin layer behind a base).
    private static List<IMethodSymbol> WithOverrides(SourceIndex index, IReadOnlyList<IMethodSymbol> implementations)
    {
        var all = new List<IMethodSymbol>(implementations);
        for (var i = 0; i < all.Count; i++)
        {
            if ((all[i].IsAbstract || all[i].IsVirtual || all[i].IsOverride) && !all[i].IsSealed && all[i].ContainingType?.TypeKind == TypeKind.Class)
            {
                all.AddRange(index.Implementations(all[i]).Where(o => !all.Contains(o, SymbolEqualityComparer.Default)));
            }
        }
        return all;
    }

    // Whether an object of concrete type p runs candidate c when definition is called on it. Symbols are compared by
    // key: p, the call and c may come from three projects' compilations (retargeted twins are not equal symbols).
    internal static bool Runs(INamedTypeSymbol p, IMethodSymbol definition, IMethodSymbol c)
    {
        IMethodSymbol? runs;
        var key = SymbolNames.Key(definition);
        if (definition.ContainingType is { TypeKind: TypeKind.Interface } iface)
        {
            var name = SymbolNames.MetadataName(iface);
            var constructed = p.AllInterfaces.FirstOrDefault(i => SymbolNames.MetadataName(i) == name);
            var member = constructed?.GetMembers(definition.Name).OfType<IMethodSymbol>().FirstOrDefault(m => SymbolNames.Key(m) == key);
            runs = member is null ? null : p.FindImplementationForInterfaceMember(member) as IMethodSymbol;
            // An interface member implemented by an abstract (or virtual) member of a base: p runs its override.
            runs = runs is null ? null : Visible(SymbolNames.Key(runs), p) ?? runs;
        }
        else
        {
            runs = Visible(key, p);
        }
        return runs is not null ? SymbolNames.Key(runs) == SymbolNames.Key(c) : c.ContainingType is { } owner && DerivesFrom(p, owner);
    }

    /// <summary>The method an object of concrete type <paramref name="type"/> runs when <paramref name="definition"/> is called on it (by key: another project's twin).</summary>
    public static IMethodSymbol? RunBy(INamedTypeSymbol type, IMethodSymbol definition) => Visible(SymbolNames.Key(definition), type);

    // The implementation a receiver of this static type runs when it is exactly that type.
    private static IMethodSymbol? Visible(IMethodSymbol definition, INamedTypeSymbol receiverType)
    {
        if (definition.ContainingType?.TypeKind == TypeKind.Interface)
        {
            return receiverType.FindImplementationForInterfaceMember(definition) as IMethodSymbol;
        }
        for (var t = receiverType; t is not null; t = t.BaseType)
        {
            foreach (var m in t.GetMembers(definition.Name).OfType<IMethodSymbol>())
            {
                for (var o = m; o is not null; o = o.OverriddenMethod)
                {
                    if (SymbolEqualityComparer.Default.Equals(o.OriginalDefinition, definition))
                    {
                        return m;
                    }
                }
            }
        }
        return null;
    }

    // The same, by key, for a type from another project's compilation.
    private static IMethodSymbol? Visible(string key, INamedTypeSymbol type)
    {
        for (var t = type; t is not null; t = t.BaseType)
        {
            foreach (var m in t.GetMembers().OfType<IMethodSymbol>())
            {
                for (var o = m; o is not null; o = o.OverriddenMethod)
                {
                    if (SymbolNames.Key(o) == key)
                    {
                        return m;
                    }
                }
            }
        }
        return null;
    }

    private static bool DerivesFrom(INamedTypeSymbol? type, INamedTypeSymbol baseType)
    {
        for (var t = type; t is not null; t = t.BaseType)
        {
            if (SymbolEqualityComparer.Default.Equals(t.OriginalDefinition, baseType.OriginalDefinition))
            {
                return true;
            }
        }
        return false;
    }
}
