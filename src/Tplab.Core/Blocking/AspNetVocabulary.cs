using System.Collections.Frozen;
using System.Text.RegularExpressions;

namespace Tplab.Blocking;

/// <summary>
/// The words of ASP.NET Core and ADO.NET that <c>diagnose</c> (reading IL and stacks) and <c>scan</c> (reading
/// source) both read code with, in one place so that the two commands name the same code the same way: the HTTP verb
/// of each <c>Map*</c> method and the synchronous database methods. MVC's routes are <see cref="MvcRouteModel"/>'s
/// rules; the place and context words are <see cref="PlaceWords"/>'.
/// </summary>
public static partial class AspNetVocabulary
{
    /// <summary>The method of an endpoint every HTTP method reaches (<c>app.Map</c>, <c>[Route]</c> without a verb attribute).</summary>
    public const string AnyMethod = "ANY";

    /// <summary>
    /// The synchronous calls of ADO.NET and its drivers and of Dapper, as catalogue methods: the driver namespaces'
    /// (diagnose) and ADO.NET's base types' (scan) blocking database calls.
    /// </summary>
    public const string SyncDatabaseCalls =
        "ExecuteNonQuery|ExecuteReader|ExecuteScalar|ExecuteBatch|Open|OpenConnection|ChangeDatabase|Read|NextResult|Commit|Rollback|BeginTransaction|Prepare"
        + "|Query|QueryFirst|QueryFirstOrDefault|QuerySingle|QuerySingleOrDefault|QueryMultiple|Execute";

    /// <summary><see cref="SyncDatabaseCalls"/> as a set.</summary>
    public static FrozenSet<string> SyncDatabaseMethods { get; } = SyncDatabaseCalls.Split('|').ToFrozenSet(StringComparer.Ordinal);

    /// <summary>
    /// The verb of a <c>Map*</c> endpoint method: <c>MapGet</c> is <c>GET</c>, <c>Map</c> and <c>MapFallback</c> are
    /// <see cref="AnyMethod"/>; null for <c>MapMethods</c> (its verbs are its argument) and for anything else.
    /// </summary>
    public static string? MapVerb(string mapMethod) => mapMethod switch
    {
        "MapGet" => "GET",
        "MapPost" => "POST",
        "MapPut" => "PUT",
        "MapDelete" => "DELETE",
        "MapPatch" => "PATCH",
        "Map" or "MapFallback" => AnyMethod,
        _ => null,
    };

    /// <summary><c>/orders/{id:int}</c> → <c>/orders/{id}</c>, <c>{**path:nonfile}</c> → <c>{**path}</c>: the route as a user reads it.</summary>
    public static string WithoutConstraints(string route) => Constraint().Replace(route, "{$1}");

    private static readonly Regex ConstraintPattern = new(@"\{(\*{0,2}\w+\??)(:[^}]*)?\}", RegexOptions.CultureInvariant);

    private static Regex Constraint() => ConstraintPattern;
}
