using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace Tplab.Scan.Rules;

/// <summary>What source tells about an IQueryable: an EF Core DbSet (a database query), an in-memory AsQueryable, or not known.</summary>
internal enum QueryOrigin
{
    Unknown,
    Database,
    Memory,

    /// <summary>An IQueryable whose provider source does not show, behind a static type that hides it (a parameter typed <c>IEnumerable&lt;T&gt;</c> every caller passes a query).</summary>
    UnknownQuery,

    /// <summary>A query from some of the callers only (others pass a list): it may run, depending on the caller.</summary>
    Partly,
}

/// <summary>
/// Synchronous execution of an IQueryable (<c>ToList()</c>, <c>First()</c>, <c>Count()</c>, <c>foreach</c>): a database
/// round trip on the calling thread when the query comes from EF Core, nothing when it is <c>AsQueryable()</c> over a list.
/// </summary>
internal static class Queries
{
    /// <summary>The operators that run the query (the rest compose it).</summary>
    public static readonly HashSet<string> Executing = new(StringComparer.Ordinal)
    {
        "ToList", "ToArray", "ToDictionary", "ToHashSet", "ToLookup", "First", "FirstOrDefault", "Single", "SingleOrDefault",
        "Last", "LastOrDefault", "Count", "LongCount", "Any", "All", "Sum", "Min", "Max", "Average", "Contains", "ElementAt",
        "ElementAtOrDefault", "Aggregate", "MinBy", "MaxBy", "SequenceEqual",
        // EF Core's own synchronous operators.
        "Load", "ExecuteDelete", "ExecuteUpdate",
    };

    // The in-memory operators that enumerate a second sequence as well as their source.
    private static readonly HashSet<string> Combining = new(StringComparer.Ordinal) { "Join", "GroupJoin", "Zip", "Concat", "Union", "Intersect", "Except" };

    public static bool IsQueryable(ITypeSymbol? type) =>
        type is not null && (Ops.NameOf(type) is "System.Linq.IQueryable`1" or "System.Linq.IQueryable" || Ops.Implements(type, "System.Linq.IQueryable"));

    /// <summary>
    /// Where the sequence <paramref name="op"/> comes from: a database query (an EF Core DbSet, <c>FromSql</c>, a query
    /// returned by one of the solution's methods, or such a query after <c>AsEnumerable()</c>), memory, or not known.
    /// An operator that already ran the query (<c>ToList()</c>) starts a sequence in memory.
    /// </summary>
    public static QueryOrigin Origin(IOperation? op, IOperation body, IArgumentSource? index = null) => Trace(op, body, index).Origin;

    /// <summary>
    /// The origin with the evidence for it, in words (<c>DbSet&lt;Order&gt; (EF Core)</c>). Scan asks whether a query
    /// may run on the database (a local or a method that is one on some path is); <paramref name="everyPath"/> asks
    /// whether it is one on every path, through operators known to keep the provider (LINQ's, EF Core's, the
    /// solution's own methods): what fix needs before it hands the query to EF's async path.
    /// </summary>
    public static (QueryOrigin Origin, string? Evidence) Trace(IOperation? op, IOperation body, IArgumentSource? index = null, int depth = 0, bool everyPath = false)
    {
        op = Ops.Unwrap(op);
        if (op is null || depth > 12)
        {
            return (QueryOrigin.Unknown, null);
        }
        if (Ops.IsOrDerives(op.Type, "Microsoft.EntityFrameworkCore.DbSet`1"))
        {
            return (QueryOrigin.Database, $"{Display(op.Type)} (EF Core)");
        }
        switch (op)
        {
            case IInvocationOperation i when Executing.Contains(i.TargetMethod.Name) && IsLinq(i.TargetMethod.ContainingType):
                // db.Orders.ToList().Where(...): the query ran at ToList; what follows is in memory.
                return (QueryOrigin.Memory, null);
            case IInvocationOperation i when i.TargetMethod.Name.EndsWith("Async", StringComparison.Ordinal) && IsLinq(i.TargetMethod.ContainingType):
                // await query.ToListAsync(): the rows are in memory once awaited.
                return (QueryOrigin.Memory, null);
            case IInvocationOperation { TargetMethod.Name: "AsQueryable" } i when Ops.NameOf(i.TargetMethod.ContainingType) == "System.Linq.Queryable":
                return IsQueryable(Ops.Receiver(i)?.Type) ? Trace(Ops.Receiver(i), body, index, depth + 1, everyPath) : (QueryOrigin.Memory, null);
            case IInvocationOperation { TargetMethod.Name: "AsEnumerable" } i when IsQueryable(Ops.Unwrap(Ops.Receiver(i))?.Type):
                var before = Trace(Ops.Receiver(i), body, index, depth + 1, everyPath);
                return before.Origin == QueryOrigin.Database ? (QueryOrigin.Database, before.Evidence + ", enumerated after AsEnumerable()") : before;
            case IInvocationOperation i when Ops.NameOf(i.TargetMethod.ContainingType) is "Microsoft.EntityFrameworkCore.DbContext"
                && i.TargetMethod.Name is "Set" or "FromSqlRaw" or "FromSql" or "FromSqlInterpolated":
                return (QueryOrigin.Database, $"DbContext.{i.TargetMethod.Name} (EF Core)");
            case IInvocationOperation i when Ops.NameOf(i.TargetMethod.ContainingType).StartsWith("Microsoft.EntityFrameworkCore.", StringComparison.Ordinal) && IsQueryable(i.Type):
                var inner = Trace(Ops.Receiver(i), body, index, depth + 1, everyPath);
                // An EF operator presumes its source is EF's (on another provider it hands the source back untouched).
                return inner.Origin == QueryOrigin.Database ? inner : everyPath ? (QueryOrigin.Unknown, null) : (QueryOrigin.Database, $"{i.TargetMethod.Name} (EF Core)");
            case IInvocationOperation i when depth < 6 && !IsLinq(i.TargetMethod.ContainingType) && index is not null && index.ReturnedBy(i.TargetMethod) is { Count: > 0 } returned:
                // A query built by one of the solution's methods: what it returns.
                var fromMethod = returned.Select(r => Trace(r.Value, r.Body, index, depth + 1, everyPath)).ToList();
                var db = fromMethod.FirstOrDefault(o => o.Origin == QueryOrigin.Database);
                if (db.Origin == QueryOrigin.Database && (!everyPath || fromMethod.All(o => o.Origin == QueryOrigin.Database)))
                {
                    return (QueryOrigin.Database, $"{db.Evidence}, returned by {i.TargetMethod.Name}()");
                }
                if (fromMethod.All(o => o.Origin == QueryOrigin.Memory))
                {
                    return (QueryOrigin.Memory, null);
                }
                // query.WhereIf(cond, ...): a helper that composes the query it is given: the receiver's origin.
                return !everyPath && IsSequence(i.Type) && Ops.Receiver(i) is { } composed ? Trace(composed, body, index, depth + 1, everyPath) : (QueryOrigin.Unknown, null);
            case IInvocationOperation i when Ops.NameOf(i.TargetMethod.ContainingType) == "System.Linq.Enumerable" && Combining.Contains(i.TargetMethod.Name) && i.Arguments.Length > 1:
                // list.Join(db.Products, ...): an in-memory join enumerates its inner sequence whole, a query when it is one.
                var outer = Trace(Ops.Receiver(i), body, index, depth + 1, everyPath);
                var other = Trace(i.Arguments[1].Value, body, index, depth + 1, everyPath);
                return outer.Origin != QueryOrigin.Database && other.Origin == QueryOrigin.Database
                    ? (QueryOrigin.Database, $"{other.Evidence}, enumerated whole as the inner sequence of an in-memory {i.TargetMethod.Name}")
                    : outer;
            case IInvocationOperation i when IsSequence(i.Type) && (!everyPath || IsLinq(i.TargetMethod.ContainingType)):
                var composing = Trace(Ops.Receiver(i), body, index, depth + 1, everyPath);
                // sort.Match(d => d ? q.OrderByDescending(…) : q.OrderBy(…), () => q): a library call that picks among the
                // queries its lambdas build has their origin.
                return !everyPath && composing.Origin == QueryOrigin.Unknown && Built(i) is { Count: > 0 } built
                    ? Either([.. built.Select(b => Trace(b, body, index, depth + 1))])
                    : composing;
            case IConditionalOperation { WhenFalse: { } otherwise } c when IsSequence(c.Type):
                // descending ? q.OrderByDescending(…) : q.OrderBy(…): either branch's origin (on every path: both's).
                return Either([Trace(c.WhenTrue, body, index, depth + 1, everyPath), Trace(otherwise, body, index, depth + 1, everyPath)], everyPath);
            case ICoalesceOperation c when IsSequence(c.Type):
                return Either([Trace(c.Value, body, index, depth + 1, everyPath), Trace(c.WhenNull, body, index, depth + 1, everyPath)], everyPath);
            case ILocalReferenceOperation l:
                // entries = entries.Where(...): a value built over the local itself composes it and has its origin.
                var values = Ops.ValuesOf(l.Local, body).ToList();
                var own = values.Where(v => !Composes(v, l.Local)).ToList();
                var origins = (own.Count > 0 ? own : values).Select(v => Trace(v, body, index, depth + 1, everyPath)).ToList();
                var distinct = origins.Select(o => o.Origin).Distinct().ToList();
                return distinct.Count == 1 ? origins[0]
                    : !everyPath && distinct.Contains(QueryOrigin.Database) ? origins.First(o => o.Origin == QueryOrigin.Database) : (QueryOrigin.Unknown, null);
            case IParameterReferenceOperation p when index is not null && !everyPath && IsSequence(p.Type):
                // Initialize(IEnumerable<T> source) { … source.Count() … }: what its callers pass.
                return QueryParameters.Trace(p.Parameter, index, depth);
            case IFieldReferenceOperation f when index is not null && depth < 6 && IsQueryable(f.Type) && index.AssignedTo(f.Field) is { Count: > 0 } assigned:
                // messages = (await repository.GetAll()).AsQueryable() in one method, messages.Any() in another (a Razor component's @code).
                var held = assigned.Select(a => Trace(a.Value, a.Body, index, depth + 1, everyPath)).ToList();
                return held.All(o => o.Origin == QueryOrigin.Memory) ? (QueryOrigin.Memory, null)
                    : everyPath && held.Any(o => o.Origin != QueryOrigin.Database) ? (QueryOrigin.Unknown, null)
                    : held.FirstOrDefault(o => o.Origin == QueryOrigin.Database) is { Origin: QueryOrigin.Database } stored ? stored : (QueryOrigin.Unknown, null);
            case IPropertyReferenceOperation p when Ops.IsOrDerives(p.Property.ContainingType, "Microsoft.EntityFrameworkCore.DbContext") && IsQueryable(p.Type):
                return (QueryOrigin.Database, $"{p.Property.ContainingType.Name}.{p.Property.Name} (EF Core)");
            case ITranslatedQueryOperation translated:
                // from l in lines join o in db.Orders ...: the query expression's calls.
                return Trace(translated.Operation, body, index, depth + 1, everyPath);
            case IAwaitOperation awaited:
                // (await repository.GetAllAsync()).ToList(): what the awaited method returns.
                return Trace(awaited.Operation, body, index, depth + 1, everyPath);
            case IObjectCreationOperation or IArrayCreationOperation or ICollectionExpressionOperation:
                return (QueryOrigin.Memory, null);
            default:
                return (QueryOrigin.Unknown, null);
        }
    }

    // One origin for values any of which the code may hold: the same origin, a database query if one is, else not known.
    // One origin when every value has it; else a database query when one is (on every path: not known).
    private static (QueryOrigin Origin, string? Evidence) Either(IReadOnlyList<(QueryOrigin Origin, string? Evidence)> origins, bool everyPath = false) =>
        origins.Select(o => o.Origin).Distinct().Count() == 1 ? origins[0]
            : !everyPath && origins.FirstOrDefault(o => o.Origin == QueryOrigin.Database) is { Origin: QueryOrigin.Database } db ? db : (QueryOrigin.Unknown, null);

    // The sequences the lambdas passed to a call return (their own returns, not nested lambdas').
    private static List<IOperation> Built(IInvocationOperation call) =>
        [.. call.Arguments.Select(a => a.Value.DescendantsAndSelf().OfType<IAnonymousFunctionOperation>().FirstOrDefault())
            .OfType<IAnonymousFunctionOperation>()
            .SelectMany(f => f.Body.Descendants().OfType<IReturnOperation>()
                .Where(r => r.Ancestors().OfType<IAnonymousFunctionOperation>().FirstOrDefault() == f))
            .Select(r => r.ReturnedValue)
            .OfType<IOperation>()
            .Where(v => IsSequence(Ops.Unwrap(v)?.Type))];

    // A value over the local that brings no query of its own (results = results.Concat(db.Orders) does).
    private static bool Composes(IOperation value, ILocalSymbol local) =>
        value.DescendantsAndSelf().Any(o => o is ILocalReferenceOperation r && SymbolEqualityComparer.Default.Equals(r.Local, local))
        && !value.DescendantsAndSelf().Any(o => Ops.IsOrDerives(o.Type, "Microsoft.EntityFrameworkCore.DbSet`1"));

    /// <summary>Whether <paramref name="type"/> is a sequence: an IQueryable or an IEnumerable other than a string.</summary>
    public static bool IsSequence(ITypeSymbol? type) => type is not null && type.SpecialType != SpecialType.System_String
        && (IsQueryable(type) || Ops.Implements(type, "System.Collections.IEnumerable"));

    private static bool IsLinq(ITypeSymbol? type) => Ops.NameOf(type) is "System.Linq.Enumerable" or "System.Linq.Queryable"
        or "Microsoft.EntityFrameworkCore.EntityFrameworkQueryableExtensions";

    private static string Display(ITypeSymbol? type) => type?.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat) ?? "?";
}

internal static class OperationAncestors
{
    public static IEnumerable<IOperation> Ancestors(this IOperation op)
    {
        for (var p = op.Parent; p is not null; p = p.Parent)
        {
            yield return p;
        }
    }
}
