using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace Tplab.Scan.Rules;

/// <summary>What source tells about an IQueryable: an EF Core DbSet (a database query), an in-memory AsQueryable, or not known.</summary>
internal enum QueryOrigin
{
    Unknown,
    Database,
    Memory,
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

    public static bool IsQueryable(ITypeSymbol? type) =>
        type is not null && (Ops.NameOf(type) is "System.Linq.IQueryable`1" or "System.Linq.IQueryable" || Ops.Implements(type, "System.Linq.IQueryable"));

    public static QueryOrigin Origin(IOperation? op, IOperation body, int depth = 0)
    {
        op = Ops.Unwrap(op);
        if (op is null || depth > 12)
        {
            return QueryOrigin.Unknown;
        }
        if (Ops.IsOrDerives(op.Type, "Microsoft.EntityFrameworkCore.DbSet`1"))
        {
            return QueryOrigin.Database;
        }
        switch (op)
        {
            case IInvocationOperation { TargetMethod.Name: "AsQueryable" } i when Ops.NameOf(i.TargetMethod.ContainingType) == "System.Linq.Queryable":
                return IsQueryable(Ops.Receiver(i)?.Type) ? Origin(Ops.Receiver(i), body, depth + 1) : QueryOrigin.Memory;
            case IInvocationOperation i when Ops.NameOf(i.TargetMethod.ContainingType) is "Microsoft.EntityFrameworkCore.DbContext"
                && i.TargetMethod.Name is "Set" or "FromSqlRaw" or "FromSql" or "FromSqlInterpolated":
                return QueryOrigin.Database;
            case IInvocationOperation i when Ops.NameOf(i.TargetMethod.ContainingType).StartsWith("Microsoft.EntityFrameworkCore.", StringComparison.Ordinal):
                return QueryOrigin.Database;
            case IInvocationOperation i:
                return Origin(Ops.Receiver(i), body, depth + 1);
            case ILocalReferenceOperation l:
                var origins = Ops.ValuesOf(l.Local, body).Select(v => Origin(v, body, depth + 1)).Distinct().ToList();
                return origins.Count == 1 ? origins[0] : origins.Contains(QueryOrigin.Database) ? QueryOrigin.Database : QueryOrigin.Unknown;
            case IPropertyReferenceOperation p when Ops.IsOrDerives(p.Property.ContainingType, "Microsoft.EntityFrameworkCore.DbContext"):
                return QueryOrigin.Database;
            default:
                return QueryOrigin.Unknown;
        }
    }
}
