using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// The solution's concrete types an interface-typed receiver can be: those implementing the receiver's own interface.
/// A member a derived interface inherits (<c>IDisposable.Dispose</c> called on an <c>IHlsSessionWorker</c>) runs in one
/// of those, never in every implementer of the base interface.
/// </summary>
internal static class Implementers
{
    private static readonly ConditionalWeakTable<SourceIndex, ConcurrentDictionary<string, List<INamedTypeSymbol>>> Cache = new();

    /// <summary>The concrete source types implementing <paramref name="iface"/>'s definition (compared by name: another project's twin counts).</summary>
    public static IReadOnlyList<INamedTypeSymbol> Of(SourceIndex index, INamedTypeSymbol iface) =>
        Cache.GetOrCreateValue(index).GetOrAdd(SymbolNames.MetadataName(iface), name =>
            [.. index.Types.Where(t => !t.IsAbstract && t.TypeKind is TypeKind.Class or TypeKind.Struct
                && t.AllInterfaces.Any(i => SymbolNames.MetadataName(i) == name))]);

    /// <summary>
    /// Whether <paramref name="definition"/> is a member the receiver's interface inherits from another interface (or a
    /// library interface over one of the solution's types, <c>IObserver&lt;ServerConfig&gt;.OnNext</c>): the call is narrowed
    /// to what the receiver's implementers run.
    /// </summary>
    public static bool Inherited(IMethodSymbol definition, INamedTypeSymbol receiverType) =>
        receiverType.TypeKind == TypeKind.Interface && definition.ContainingType is { } owner
        && SymbolNames.MetadataName(owner) != SymbolNames.MetadataName(receiverType);

    /// <summary>Whether a library interface is instantiated over one of the solution's types (<c>IObserver&lt;ServerConfig&gt;</c>).</summary>
    public static bool OverSourceType(SourceIndex index, INamedTypeSymbol? receiverType) =>
        receiverType is { TypeKind: TypeKind.Interface, IsGenericType: true } && receiverType.TypeArguments.Any(index.IsSource);
}
