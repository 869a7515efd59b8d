namespace Shop.Data;

public interface IStockStore
{
    int Count(string sku);
}

/// <summary>Counts kept in memory, refreshed by the importer.</summary>
public sealed class CachedStockStore : IStockStore
{
    private readonly Dictionary<string, int> _counts = new(StringComparer.Ordinal);

    public int Count(string sku) => _counts.TryGetValue(sku, out var n) ? n : 0;
}

/// <summary>The warehouse's export file, read on each call.</summary>
public sealed class FileStockStore(string folder) : IStockStore
{
    public int Count(string sku)
    {
        var text = File.ReadAllText(Path.Combine(folder, sku + ".txt"));
        return int.Parse(text, System.Globalization.CultureInfo.InvariantCulture);
    }
}

/// <summary>A repository base every entity store uses.</summary>
public class Repo<T>
    where T : class
{
    public T? Find(int id)
    {
        Throttle.Wait();
        return null;
    }
}

public static class Throttle
{
    public static void Wait() => Thread.Sleep(20);
}
