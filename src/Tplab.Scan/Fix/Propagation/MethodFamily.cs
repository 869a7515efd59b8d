using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;

namespace Tplab.Scan.Fix.Propagation;

/// <summary>
/// The methods whose signatures must change together: the method, the members it overrides or implements (implicitly
/// or explicitly), and every override and implementation of those in the solution, transitively.
/// </summary>
internal static class MethodFamily
{
    public static async Task<List<IMethodSymbol>> FindAsync(IMethodSymbol symbol, Solution solution, CancellationToken cancellationToken)
    {
        var family = new List<IMethodSymbol>();
        var queue = new Queue<IMethodSymbol>([symbol]);
        while (queue.Count > 0)
        {
            var m = queue.Dequeue().OriginalDefinition;
            if (family.Contains(m, SymbolEqualityComparer.Default))
            {
                continue;
            }
            family.Add(m);
            if (m.OverriddenMethod is { } overridden)
            {
                queue.Enqueue(overridden);
            }
            foreach (var explicitly in m.ExplicitInterfaceImplementations)
            {
                queue.Enqueue(explicitly);
            }
            if (m.ContainingType is { } type)
            {
                foreach (var iface in type.AllInterfaces)
                {
                    foreach (var member in iface.GetMembers(m.Name).OfType<IMethodSymbol>())
                    {
                        if (SymbolEqualityComparer.Default.Equals(type.FindImplementationForInterfaceMember(member)?.OriginalDefinition, m))
                        {
                            queue.Enqueue(member);
                        }
                    }
                }
            }
            if (m.IsAbstract || m.IsVirtual || m.IsOverride || m.ContainingType?.TypeKind == TypeKind.Interface)
            {
                foreach (var o in await SymbolFinder.FindOverridesAsync(m, solution, cancellationToken: cancellationToken).ConfigureAwait(false))
                {
                    queue.Enqueue((IMethodSymbol)o);
                }
                foreach (var i in await SymbolFinder.FindImplementationsAsync(m, solution, cancellationToken: cancellationToken).ConfigureAwait(false))
                {
                    if (i is IMethodSymbol im)
                    {
                        queue.Enqueue(im);
                    }
                }
            }
        }
        return family;
    }
}
