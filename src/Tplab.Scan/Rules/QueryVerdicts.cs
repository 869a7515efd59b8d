using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Blocking;

namespace Tplab.Scan.Rules;

/// <summary>
/// How sure a call that runs a query is, from where the query comes from (<see cref="Queries.Trace"/>): a database's
/// is certain; an IQueryable whose provider source does not show, or one that only some callers pass, is a guess, and
/// the finding says which. Also the collections that enumerate a query they are given (<c>new List&lt;T&gt;(query)</c>,
/// <c>list.AddRange(query)</c>).
/// </summary>
internal static class QueryVerdicts
{
    private static readonly HashSet<string> Collections = new(StringComparer.Ordinal) { "System.Collections.Generic.List`1", "System.Collections.Generic.HashSet`1" };

    private static readonly HashSet<string> Filling = new(StringComparer.Ordinal) { ".ctor", "AddRange", "InsertRange", "UnionWith" };

    /// <summary>The verdict when source does not show a database query: null when the value is not a query at all.</summary>
    public static Verdict? NotProven(BlockingCall named, (QueryOrigin Origin, string? Evidence) traced, ITypeSymbol? type, string verb) => traced.Origin switch
    {
        QueryOrigin.Unknown when Queries.IsQueryable(type) => new Verdict(named, Certainty.Uncertain, "the IQueryable's provider is not known from source",
            $"{verb} an {Ops.NameOf(type)} whose provider source does not show"),
        QueryOrigin.UnknownQuery => new Verdict(named, Certainty.Uncertain, "the IQueryable's provider is not known from source", $"{verb} {traced.Evidence}"),
        QueryOrigin.Partly => new Verdict(named, Certainty.Uncertain, "only some callers pass a query", $"{verb} {traced.Evidence}"),
        _ => null,
    };

    /// <summary><c>new List&lt;T&gt;(query)</c>, <c>list.AddRange(query)</c>: the collection enumerates what it is given, a query synchronously.</summary>
    public static Verdict? ForCollection(IOperation call, StackFrame frame, IOperation body, IArgumentSource? callers)
    {
        if (!Collections.Contains(frame.TypeName) || !Filling.Contains(frame.MethodName))
        {
            return null;
        }
        var arguments = call switch
        {
            IInvocationOperation i => i.Arguments,
            IObjectCreationOperation o => o.Arguments,
            _ => default,
        };
        var argument = arguments.IsDefault ? null : arguments.FirstOrDefault(a => Queries.IsSequence(Ops.Unwrap(a.Value)?.Type));
        if (argument is null)
        {
            return null;
        }
        var value = Ops.Unwrap(argument.Value);
        var shortType = frame.TypeName[(frame.TypeName.LastIndexOf('.') + 1)..frame.TypeName.IndexOf('`', StringComparison.Ordinal)];
        var named = new BlockingCall(BlockingKind.SyncDatabaseIO, frame.MethodName == ".ctor" ? $"new {shortType}" : $"{shortType}.{frame.MethodName}", frame);
        var traced = Queries.Trace(value, body, callers);
        return traced.Origin == QueryOrigin.Database
            ? new Verdict(named with { On = "an EF Core query" }, Certainty.Certain, null, "enumerates a database query: " + traced.Evidence)
            : NotProven(named, traced, value?.Type, "enumerates");
    }
}
