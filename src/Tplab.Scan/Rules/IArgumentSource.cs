using Microsoft.CodeAnalysis;

namespace Tplab.Scan.Rules;

/// <summary>
/// What a parameter receives at each call of its method (a stream passed to a parser): the rules ask, the call graph
/// answers (<c>Graph.Callers</c>), so that the rules know nothing of the graph.
/// </summary>
internal interface IArgumentSource
{
    /// <summary>The arguments passed for <paramref name="parameter"/> at every call of its method, each with its body's root operation.</summary>
    IEnumerable<(IOperation Value, IOperation Body)> ArgumentsFor(IParameterSymbol parameter);
}
