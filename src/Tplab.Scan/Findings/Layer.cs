using Microsoft.CodeAnalysis;
using Tplab.Scan.Graph;

namespace Tplab.Scan.Findings;

/// <summary>
/// The layer to make async for a site: going up from the blocking call's method through the methods still synchronous,
/// the farthest one that more than half of the site's entry points go through (a repository method every endpoint
/// shares, rather than one endpoint of two hundred), counted over every entry point's own way to the site.
/// </summary>
/// <param name="Method"><c>Namespace.Type.Method</c>.</param>
/// <param name="Display"><c>Type.Method</c>.</param>
/// <param name="Through">How many of the site's entry points reach it through this method.</param>
/// <param name="Of">How many entry points reach the site.</param>
public sealed record Layer(string Method, string Display, int Through, int Of)
{
    /// <summary>
    /// The layer of a site from <paramref name="through"/> (each method on the synchronous part of some entry point's way
    /// to it: how many entry points go through it, and its greatest distance from the blocking call's method): the
    /// farthest method more than half of the <paramref name="roots"/> go through; null when that is the blocking call's
    /// own method (the advice names it already) or when fewer than two entry points reach the site.
    /// </summary>
    internal static Layer? From(IReadOnlyDictionary<CodeNode, (int Count, int Height)> through, int roots)
    {
        if (roots < 2)
        {
            return null;
        }
        var best = through.Where(t => t.Value.Height > 0 && t.Value.Count * 2 > roots)
            .OrderByDescending(t => t.Value.Height).ThenByDescending(t => t.Value.Count).ThenBy(t => t.Key.FullName, StringComparer.Ordinal)
            .Select(t => t.Key).FirstOrDefault();
        return best is null ? null : new Layer(best.FullName, best.DisplayName, Math.Min(through[best].Count, roots), roots);
    }

    /// <summary>The sentence the advice ends with.</summary>
    public string Advice(string siteMethod) => Through == Of
        ? $"Layer: all {Of} entry points that reach it go through {Display}: make it async, with the methods from it down to {siteMethod}."
        : $"Layer: make {Display} async, with the methods from it down to {siteMethod}: {Through} of the {Of} entry points that reach it go through it.";

    /// <summary>
    /// A method whose signature can take <c>async Task</c>: not already returning an awaitable (its callers await it
    /// already: the layer is below it), not a constructor, accessor or operator (they cannot be async), not a lambda
    /// (its delegate type decides: a DI factory's <c>sp => ...</c> cannot return a task).
    /// </summary>
    public static bool CanBecomeAsync(CodeNode node)
    {
        var symbol = node.Symbol;
        if (symbol.MethodKind is not (MethodKind.Ordinary or MethodKind.ExplicitInterfaceImplementation or MethodKind.LocalFunction))
        {
            return false;
        }
        return !symbol.IsAsync && symbol.ReturnType.Name is not ("Task" or "ValueTask" or "IAsyncEnumerable");
    }
}
