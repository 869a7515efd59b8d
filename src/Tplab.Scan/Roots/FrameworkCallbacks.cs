using Microsoft.CodeAnalysis;
using Tplab.Blocking;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// An instance of the app's own type set on a framework options object (<c>options.SessionStore = new TicketStore(…)</c>
/// in <c>PostConfigure</c>, <c>AddCookie(o =&gt; …)</c>, <c>Configure&lt;TOptions&gt;</c>): the framework calls that type's
/// implementations of the property's interface (or abstract class) members while requests wait (the cookie handler asks
/// its session store on each request), so each is an entry point, named by the property that holds it.
/// </summary>
internal static class FrameworkCallbacks
{
    public static IEnumerable<EntryPoint> Find(SourceIndex index, Sites sites)
    {
        foreach (var (property, created) in sites.OptionInstances())
        {
            if (index.IsSource(property) || !property.ContainingType.Name.EndsWith("Options", StringComparison.Ordinal) || !index.IsSource(created)
                || property.Type is not INamedTypeSymbol { TypeKind: TypeKind.Interface or TypeKind.Class } contract
                || (contract.TypeKind == TypeKind.Class && !contract.IsAbstract) || index.IsSource(contract))
            {
                continue;
            }
            var setAs = $"{property.ContainingType.Name}.{property.Name}";
            foreach (var method in Called(contract, created))
            {
                if (index.IsSource(method) && index.NodeFor(method) is { } node)
                {
                    yield return new EntryPoint(node, CodePlace.FrameworkCallback, null) { SetAs = setAs };
                }
            }
        }
    }

    // The created type's methods that implement the contract's members: an interface's (and its bases'), or an
    // abstract class's abstract and virtual members, each the most derived override.
    private static IEnumerable<IMethodSymbol> Called(INamedTypeSymbol contract, INamedTypeSymbol created)
    {
        if (contract.TypeKind == TypeKind.Interface)
        {
            return contract.GetMembers().Concat(contract.AllInterfaces.SelectMany(i => i.GetMembers())).OfType<IMethodSymbol>()
                .Select(m => created.FindImplementationForInterfaceMember(m)).OfType<IMethodSymbol>().Distinct<IMethodSymbol>(SymbolEqualityComparer.Default);
        }
        var overridden = new List<IMethodSymbol>();
        for (var t = created; t is not null && !SymbolEqualityComparer.Default.Equals(t.OriginalDefinition, contract.OriginalDefinition); t = t.BaseType)
        {
            overridden.AddRange(t.GetMembers().OfType<IMethodSymbol>().Where(m => m.IsOverride && !overridden.Any(o => Overrides(o, m))));
        }
        return overridden;
    }

    private static bool Overrides(IMethodSymbol derived, IMethodSymbol baseMethod)
    {
        for (var o = derived.OverriddenMethod; o is not null; o = o.OverriddenMethod)
        {
            if (SymbolEqualityComparer.Default.Equals(o, baseMethod))
            {
                return true;
            }
        }
        return false;
    }
}
