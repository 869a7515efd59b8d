using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Propagation;

/// <summary>
/// A synchronous MVC filter whose method must become async implements the async twin instead (<see cref="MvcFilter"/>):
/// where it can (the class itself lists the interface, and has no subclass), and the class rewritten when it does.
/// </summary>
internal sealed class FilterReshape(FixContext context, List<string> reshaped)
{
    /// <summary>Why the filter class cannot switch to the async twin; null when it can.</summary>
    public async Task<string?> BlockerAsync(SemanticModel model, MethodDeclarationSyntax method, IMethodSymbol symbol, MvcFilter filter)
    {
        var type = symbol.ContainingType;
        if (method.Parent is not ClassDeclarationSyntax declaration || declaration.BaseList?.Types.Any(t => SymbolEqualityComparer.Default.Equals(model.GetTypeInfo(t.Type, context.CancellationToken).Type?.OriginalDefinition, type.Interfaces.First(i => i.Name == filter.Interface).OriginalDefinition)) != true)
        {
            return $"it implements {filter.Interface}.{symbol.Name} (a package's interface), listed on another part of {type.Name}: make the filter {filter.AsyncInterface} by hand";
        }
        if (!type.IsSealed && (await SymbolFinder.FindDerivedClassesAsync(type, context.Solution, cancellationToken: context.CancellationToken).ConfigureAwait(false)).Any())
        {
            return $"it implements {filter.Interface}.{symbol.Name} (a package's interface) in {type.Name}, which has subclasses that may rely on it: make the filter {filter.AsyncInterface} by hand";
        }
        return null;
    }

    /// <summary>Plans the class's rewrite to the async twin, <paramref name="symbol"/> (renamed to <paramref name="newName"/> when set) the method made async.</summary>
    public void Reshape(SemanticModel model, ClassDeclarationSyntax declaration, IMethodSymbol symbol, MvcFilter filter, string? newName)
    {
        var type = symbol.ContainingType;
        var isBefore = symbol.Name == filter.Before;
        var name = newName ?? symbol.Name;
        var (before, after) = isBefore ? (name, filter.After) : (filter.Before, name);
        var task = context.TaskName(model, declaration);
        var configure = context.Changes.ConfigureAwait(declaration.SyntaxTree);
        var newline = AsyncSyntax.Newline(declaration.SyntaxTree.GetRoot(context.CancellationToken));
        context.Changes.Replace(declaration, n => filter.Rewrite((ClassDeclarationSyntax)n, before, after, isBefore, !isBefore, task, configure, newline));
        reshaped.Add(filter.Description(type.Name));
    }
}
