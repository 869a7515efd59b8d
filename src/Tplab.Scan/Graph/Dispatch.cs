using Microsoft.CodeAnalysis;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// Where a call goes: the method itself, or every implementation in the solution a virtual or interface call may
/// reach, narrowed by the receiver's type when source shows it.
/// </summary>
internal static class Dispatch
{
    /// <summary>The solution's methods a call may run: the method itself, or every implementation a virtual call may reach.</summary>
    public static List<CodeNode> Targets(SourceIndex index, IMethodSymbol definition, IOperation? receiver, bool isVirtual)
    {
        var dispatches = isVirtual && (definition.IsVirtual || definition.IsAbstract || definition.IsOverride || definition.ContainingType?.TypeKind == TypeKind.Interface);
        var isSource = index.IsSource(definition);
        if (!dispatches)
        {
            return isSource && index.NodeFor(definition) is { } direct ? [direct] : [];
        }
        var receiverType = Ops.Unwrap(receiver)?.Type as INamedTypeSymbol;
        // A library virtual (Stream.Read, IDisposable.Dispose) is followed into the solution only when the receiver's
        // own type is the solution's: otherwise every Dispose would reach every IDisposable the solution declares.
        if (!isSource && (receiverType is null || !index.IsSource(receiverType)))
        {
            return [];
        }
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
            }
        }
        return [.. candidates.Select(c => index.NodeFor(c)).OfType<CodeNode>().Distinct()];
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
