using Tplab.Blocking;
using Tplab.Tests.Support;

namespace Tplab.Tests.Blocking;

/// <summary>The ASP.NET Core words diagnose and scan share: one table, so the two commands cannot name the same code differently.</summary>
[ParallelSafe]
public sealed class AspNetVocabularyTests
{
    [Theory]
    [InlineData("MapGet", "GET")]
    [InlineData("MapPost", "POST")]
    [InlineData("MapPut", "PUT")]
    [InlineData("MapDelete", "DELETE")]
    [InlineData("MapPatch", "PATCH")]
    // Every method reaches these.
    [InlineData("Map", "ANY")]
    [InlineData("MapFallback", "ANY")]
    // Its verbs are an argument; and what is no endpoint method has no verb.
    [InlineData("MapMethods", null)]
    [InlineData("MapGroup", null)]
    [InlineData("MapHub", null)]
    public void MapVerb_Table(string method, string? verb) => Assert.Equal(verb, AspNetVocabulary.MapVerb(method));

    [Fact]
    public void SyncDatabaseMethods_AdoNetAndDapper_OneList()
    {
        Assert.Superset(new HashSet<string>(["ExecuteNonQuery", "ExecuteReader", "ExecuteScalar", "Open", "Read", "NextResult", "Commit", "Rollback", "BeginTransaction", "Prepare", "ChangeDatabase"]),
            new HashSet<string>(AspNetVocabulary.SyncDatabaseMethods));
        Assert.Contains("Query", (IReadOnlySet<string>)AspNetVocabulary.SyncDatabaseMethods);
        Assert.Contains("OpenConnection", (IReadOnlySet<string>)AspNetVocabulary.SyncDatabaseMethods);
        Assert.DoesNotContain("ExecuteNonQueryAsync", (IReadOnlySet<string>)AspNetVocabulary.SyncDatabaseMethods);
        // Diagnose's catalogue rows for the drivers take the same list.
        var npgsql = BlockingCallCatalogue.Match(new StackFrame("Npgsql", "Npgsql.NpgsqlConnection", "ChangeDatabase"));
        Assert.Equal(BlockingKind.SyncDatabaseIO, npgsql?.Kind);
    }
}
