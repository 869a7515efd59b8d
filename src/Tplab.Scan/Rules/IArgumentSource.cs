using Microsoft.CodeAnalysis;

namespace Tplab.Scan.Rules;

/// <summary>
/// What a parameter receives at each call of its method (a stream passed to a parser), and what a method returns (a
/// query built by a repository): the rules ask, the call graph
/// answers (<c>Graph.Callers</c>), so that the rules know nothing of the graph.
/// </summary>
internal interface IArgumentSource
{
    /// <summary>The arguments passed for <paramref name="parameter"/> at every call of its method, each with its body's root operation.</summary>
    IEnumerable<(IOperation Value, IOperation Body)> ArgumentsFor(IParameterSymbol parameter);

    /// <summary>
    /// The values a source method returns, each with its body (an expression body, or its return statements; not those
    /// of nested lambdas); for an interface or abstract method, what its implementations return. Empty for a method
    /// without source.
    /// </summary>
    IReadOnlyList<(IOperation Value, IOperation Body)> ReturnedBy(IMethodSymbol method);

    /// <summary>The values source assigns to <paramref name="field"/> (its initializer and every plain assignment in its type), each with its body.</summary>
    IReadOnlyList<(IOperation Value, IOperation Body)> AssignedTo(IFieldSymbol field);
}
