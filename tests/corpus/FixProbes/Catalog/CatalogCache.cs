namespace FixProbes.Catalog;

/// <summary>The catalogue by category, refreshed from its source under a write lock so readers never see half a list.</summary>
public sealed class CatalogCache(CatalogSource source) : IDisposable
{
    private readonly ReaderWriterLockSlim _lock = new();
    private readonly Dictionary<string, IReadOnlyList<string>> _items = new(StringComparer.OrdinalIgnoreCase);

    public string Refresh(string category)
    {
        _lock.EnterWriteLock();
        try
        {
            var items = source.LoadAsync(category).Result;
            _items[category] = items;
            return $"{category}: {string.Join(", ", items)}";
        }
        finally
        {
            _lock.ExitWriteLock();
        }
    }

    public void Dispose() => _lock.Dispose();
}

public sealed class CatalogSource
{
    public async Task<IReadOnlyList<string>> LoadAsync(string category)
    {
        await Task.Delay(5);
        return [category + "-1", category + "-2"];
    }
}
