using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace Tplab.Scan.Rules;

/// <summary>
/// A sequence parameter whose static type hides the query (<c>PagedList(IEnumerable&lt;T&gt; source)</c> given a
/// repository's <c>IQueryable</c>): its origin is what its callers pass. Every caller passing a database query makes it
/// one; every caller passing an IQueryable whose provider source does not show, <see cref="QueryOrigin.UnknownQuery"/>;
/// only some of them, <see cref="QueryOrigin.Partly"/>, the count in the evidence.
/// </summary>
internal static class QueryParameters
{
    // Parameter hops followed (Initialize(source) called by the constructor, called by a service): beyond, not known.
    private const int MaxDepth = 4;

    // A parameter's origin is asked for at every query call on it: traced once per parameter symbol and depth (the
    // depth bounds the answer, so the same question always gets the same answer, whichever walk asks first).
    private static readonly ConditionalWeakTable<IParameterSymbol, ConcurrentDictionary<int, (QueryOrigin, string?)>> Known = new();

    // Callers named in the evidence; more are counted.
    private const int Named = 3;

    // Forwarding methods looked through (a constructor handing its parameter to Initialize): beyond, the forwarder is the caller.
    private const int MaxForwards = 3;

    /// <summary>The origin of what the callers pass for <paramref name="parameter"/>, asked at <paramref name="depth"/> of <see cref="Queries.Trace"/>.</summary>
    public static (QueryOrigin Origin, string? Evidence) Trace(IParameterSymbol parameter, IArgumentSource index, int depth) =>
        depth > MaxDepth ? (QueryOrigin.Unknown, null)
            : Known.GetValue(parameter, _ => new()).GetOrAdd(depth, d => Combine([.. Passed(parameter, index, 0)
                .Select(a => (Queries.Trace(a.Value, a.Body, index, d + 2), Queries.IsQueryable(Ops.Unwrap(a.Value)?.Type), Caller(a.Value)))]));

    // What the callers pass, a method that hands its own parameter on untouched replaced by its callers (PagedList's two
    // constructors calling Initialize(source): the services that call them). A constructor or non-public method that no
    // source calls passes nothing; a public one stays a caller (a framework may call it, with values source does not show).
    private static IEnumerable<(IOperation Value, IOperation Body)> Passed(IParameterSymbol parameter, IArgumentSource index, int forwards)
    {
        foreach (var argument in index.ArgumentsFor(parameter))
        {
            if (forwards < MaxForwards && Ops.Unwrap(argument.Value) is IParameterReferenceOperation { Parameter: { ContainingSymbol: IMethodSymbol { MethodKind: MethodKind.Ordinary or MethodKind.Constructor } method } forwarded }
                && !argument.Body.DescendantsAndSelf().Any(o => o is IAssignmentOperation { Target: IParameterReferenceOperation t } && SymbolEqualityComparer.Default.Equals(t.Parameter, forwarded)))
            {
                var theirs = Passed(forwarded, index, forwards + 1).ToList();
                if (theirs.Count > 0 || method.MethodKind == MethodKind.Constructor || method.DeclaredAccessibility != Accessibility.Public)
                {
                    foreach (var passed in theirs)
                    {
                        yield return passed;
                    }
                    continue;
                }
            }
            yield return argument;
        }
    }

    // The method that passes the value (a lambda's, the method that holds it), as Type.Method.
    private static string Caller(IOperation value) =>
        value.SemanticModel?.GetEnclosingSymbol(value.Syntax.SpanStart) is IMethodSymbol method
            ? SymbolNames.UserMethod(method) is var (type, name) ? type[(type.LastIndexOfAny(['.', '+']) + 1)..] + "." + name : "?"
            : "?";

    private static (QueryOrigin, string?) Combine(IReadOnlyList<((QueryOrigin Origin, string? Evidence) Traced, bool Queryable, string Caller)> passed)
    {
        if (passed.Count == 0)
        {
            return (QueryOrigin.Unknown, null);
        }
        var queries = passed.Where(p => p.Traced.Origin is QueryOrigin.Database or QueryOrigin.UnknownQuery or QueryOrigin.Partly
            || (p.Traced.Origin == QueryOrigin.Unknown && p.Queryable)).ToList();
        if (queries.Count == 0)
        {
            return passed.All(p => p.Traced.Origin == QueryOrigin.Memory) ? (QueryOrigin.Memory, null) : (QueryOrigin.Unknown, null);
        }
        var database = queries.FirstOrDefault(q => q.Traced.Origin == QueryOrigin.Database).Traced.Evidence;
        var what = database ?? "an IQueryable whose provider source does not show";
        var callers = queries.Select(q => q.Caller).Distinct(StringComparer.Ordinal).ToList();
        var named = string.Join(", ", callers.Take(Named)) + (callers.Count > Named ? FormattableString.Invariant($" and {callers.Count - Named} more") : "");
        if (queries.Count == passed.Count && queries.All(q => q.Traced.Origin is QueryOrigin.Database or QueryOrigin.UnknownQuery or QueryOrigin.Unknown))
        {
            var every = FormattableString.Invariant($"{what}, passed by every caller ({passed.Count}: {named})");
            return (queries.All(q => q.Traced.Origin == QueryOrigin.Database) ? QueryOrigin.Database : QueryOrigin.UnknownQuery, every);
        }
        return (QueryOrigin.Partly, FormattableString.Invariant($"{what}, passed by {queries.Count} of {passed.Count} callers ({named}; the others pass a list or a value source does not show)"));
    }
}
