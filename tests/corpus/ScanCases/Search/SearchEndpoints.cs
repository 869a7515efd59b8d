using System.Text;

namespace ScanCases.Search;

public static class SearchEndpoints
{
    public static IServiceCollection AddSearch(this IServiceCollection services) => services.AddSingleton<SearchIndex>();

    public static void MapSearch(this IEndpointRouteBuilder app)
    {
        app.MapGet("/api/search", async (string q, SearchIndex index, CancellationToken ct) => Results.Ok(await index.QueryAsync(q, ct)));
        app.MapGet("/api/search/recent", (SearchIndex index) => Results.Ok(index.Recent()));
    }
}

/// <summary>
/// Event names, packed the way the search team's indexer writes them: a 4-byte count, then one name per line. The pack
/// is built in memory at start-up.
/// </summary>
public sealed class SearchIndex
{
    private readonly byte[] _packed = Pack([.. Enumerable.Range(100, 100).Select(id => $"Concert {id}"), "Spring Gala", "Jazz Night"]);
    private readonly Queue<string> _recent = new();

    public async Task<IReadOnlyList<string>> QueryAsync(string query, CancellationToken ct)
    {
        Remember(query);
        await Task.Yield();
        ct.ThrowIfCancellationRequested();
        using var packed = new MemoryStream(_packed, writable: false);
        var header = new byte[4];
        var read = packed.Read(header, 0, header.Length);
        var count = read == 4 ? BitConverter.ToInt32(header) : 0;
        using var reader = new StreamReader(packed, Encoding.UTF8);
        var names = reader.ReadToEnd().Split('\n', count, StringSplitOptions.RemoveEmptyEntries);
        return [.. names.Where(n => n.Contains(query, StringComparison.OrdinalIgnoreCase)).Take(20)];
    }

    public IReadOnlyList<string> Recent()
    {
        lock (_recent)
        {
            return [.. _recent];
        }
    }

    private void Remember(string query)
    {
        lock (_recent)
        {
            _recent.Enqueue(query);
            if (_recent.Count > 50)
            {
                _recent.Dequeue();
            }
        }
    }

    private static byte[] Pack(IReadOnlyList<string> names)
    {
        var body = Encoding.UTF8.GetBytes(string.Join('\n', names));
        return [.. BitConverter.GetBytes(names.Count), .. body];
    }
}
