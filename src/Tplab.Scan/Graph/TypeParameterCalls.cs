using Microsoft.CodeAnalysis;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// A call on an object typed by a type parameter: <paramref name="Parameter"/> (<c>T</c> of
/// <c>Run&lt;T&gt;() where T : IJob</c>) and <paramref name="Method"/>, the member called (<c>IJob.Process</c>).
/// </summary>
public sealed record TypeParameterCall(ITypeParameterSymbol Parameter, IMethodSymbol Method);

/// <summary>
/// What a walk that knows a type parameter does with a call on an object of that type: a job runner's
/// <c>Run&lt;ImportJob&gt;()</c> resolves its <c>T job</c> to an <c>ImportJob</c>, so <c>job.Process()</c> runs what
/// <c>ImportJob</c> runs, on an <c>ImportJob</c> (its <c>this</c>): an inherited <c>Process</c> that calls the abstract
/// <c>Execute()</c> then reaches <c>ImportJob.Execute</c> only, not every job's.
/// </summary>
internal sealed partial class Instantiation
{
    /// <summary>
    /// The edges of one call on an object typed by a type parameter this instantiation binds to a class, narrowed to
    /// what that class runs (and, when the class may be subclassed, the overrides below it); null when it is not known.
    /// </summary>
    public List<Edge>? NarrowTypeParameter(IReadOnlyList<Edge> call)
    {
        var on = call[0].OnTypeParameter!;
        if (Resolve(this, on.Parameter) is not INamedTypeSymbol { TypeKind: TypeKind.Class or TypeKind.Struct } type)
        {
            return null;
        }
        var name = SymbolNames.MetadataName(type);
        var open = type.TypeKind == TypeKind.Class && !type.IsSealed;
        var kept = call.Where(e => Dispatch.Runs(type, on.Method, e.Target.Symbol) || (open && Below(e.Target.Symbol.ContainingType, name))).ToList();
        return kept.Count == 0 ? null : [.. kept.Select(e => e with { Alternatives = kept.Count, Basis = $"the type argument {Display}" })];
    }

    // The concrete type of the object a call on a type parameter is made on, when this instantiation binds the parameter
    // to a class nothing derives from.
    private static INamedTypeSymbol? ExactOf(Instantiation? from, TypeParameterCall? call, SourceIndex index) =>
        from is not null && call is not null && Resolve(from, call.Parameter) is INamedTypeSymbol type ? Exact(type, index) : null;

    private static bool Below(INamedTypeSymbol? type, string name)
    {
        for (var t = type?.BaseType; t is not null; t = t.BaseType)
        {
            if (SymbolNames.MetadataName(t) == name)
            {
                return true;
            }
        }
        return false;
    }
}
