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
        if (!isSource && (receiverType is null || !index.IsSource(receiverType)))
        {
            return new([], null);
        }
        string? basis = null;
        var candidates = index.Implementations(definition).ToList();
        if (isSource && !definition.IsAbstract && definition.ContainingType?.TypeKind != TypeKind.Interface)
        {
            candidates.Add(definition);
        }
        // IHandler<OrderPlaced>.Handle: only the implementations of that constructed interface (or generic ones that may be it).
        if (receiverType is { TypeKind: TypeKind.Interface, IsGenericType: true } && receiverType.TypeArguments.All(t => t.TypeKind != TypeKind.TypeParameter))
        {
            candidates = [.. candidates.Where(c => c.ContainingType is not { } owner || owner.IsGenericType
                || owner.AllInterfaces.Any(i => SymbolEqualityComparer.Default.Equals(i, receiverType))
                || !owner.AllInterfaces.Any(i => SymbolEqualityComparer.Default.Equals(i.OriginalDefinition, receiverType.OriginalDefinition)))];
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

    // Whether an object of concrete type p runs candidate c when definition is called on it. Symbols are compared by
    // key: p, the call and c may come from three projects' compilations (retargeted twins are not equal symbols).
    private static bool Runs(INamedTypeSymbol p, IMethodSymbol definition, IMethodSymbol c)
    {
        IMethodSymbol? runs;
        var key = SymbolNames.Key(definition);
        if (definition.ContainingType is { TypeKind: TypeKind.Interface } iface)
        {
            var name = SymbolNames.MetadataName(iface);
            var constructed = p.AllInterfaces.FirstOrDefault(i => SymbolNames.MetadataName(i) == name);
            var member = constructed?.GetMembers(definition.Name).OfType<IMethodSymbol>().FirstOrDefault(m => SymbolNames.Key(m) == key);
            runs = member is null ? null : p.FindImplementationForInterfaceMember(member) as IMethodSymbol;
        }
        else
        {
            runs = Visible(key, p);
        }
        return runs is not null ? SymbolNames.Key(runs) == SymbolNames.Key(c) : c.ContainingType is { } owner && DerivesFrom(p, owner);
    }

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
