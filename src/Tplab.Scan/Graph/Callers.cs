using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// The calls of a source method across the solution, found by name in the syntax and then bound: what a parameter
/// receives at each call (a route group passed to a helper, a stream passed to a parser).
/// </summary>
internal sealed class Callers(SourceIndex index) : IArgumentSource
{
    /// <summary>The solution's source the callers are found in.</summary>
    public SourceIndex Index => index;

    private readonly Lazy<ILookup<string, InvocationExpressionSyntax>> _byName = new(() =>
        index.Trees.SelectMany(t => t.GetRoot().DescendantNodes().OfType<InvocationExpressionSyntax>())
            .ToLookup(i => i.Expression switch
            {
                MemberAccessExpressionSyntax m => m.Name.Identifier.ValueText,
                IdentifierNameSyntax n => n.Identifier.ValueText,
                GenericNameSyntax g => g.Identifier.ValueText,
                MemberBindingExpressionSyntax b => b.Name.Identifier.ValueText,
                _ => "",
            }, StringComparer.Ordinal));

    /// <summary>The arguments passed for <paramref name="parameter"/> at every call of its method, each with its body's root operation.</summary>
    public IEnumerable<(IOperation Value, IOperation Body)> ArgumentsFor(IParameterSymbol parameter)
    {
        if (parameter.ContainingSymbol is not IMethodSymbol method || method.MethodKind != MethodKind.Ordinary)
        {
            yield break;
        }
        var definition = SymbolNames.Definition(method);
        foreach (var syntax in _byName.Value[method.Name])
        {
            if (index.Model(syntax.SyntaxTree).GetOperation(syntax) is not IInvocationOperation call
                || !SymbolEqualityComparer.Default.Equals(SymbolNames.Definition(call.TargetMethod), definition))
            {
                continue;
            }
            var argument = call.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == parameter.Ordinal);
            if (argument is not null)
            {
                var root = (IOperation)call;
                while (root.Parent is not null)
                {
                    root = root.Parent;
                }
                yield return (argument.Value, root);
            }
        }
    }
}
