using Microsoft.EntityFrameworkCore;
using Shop.Data;

namespace Shop.Web.Services;

public sealed record Order(int Id, string Sku, int Quantity);

public sealed class OrderLine
{
    public int Id { get; set; }

    public int OrderId { get; set; }

    public string Sku { get; set; } = "";
}

public sealed class ShopDb(DbContextOptions<ShopDb> options) : DbContext(options)
{
    public DbSet<OrderLine> Lines => Set<OrderLine>();
}

public sealed class OrderService(ShopDb db, IStockStore stock)
{
    public Order? Load(int id)
    {
        var available = stock.Count("SKU-" + id);
        return available > 0 ? new Order(id, "SKU-" + id, available) : null;
    }

    public async Task<int> SaveAsync(Order order)
    {
        await Task.Yield();
        db.Add(new OrderLine { OrderId = order.Id, Sku = order.Sku });
        return db.SaveChanges();
    }

    public List<OrderLine> LinesOf(int id) => db.Lines.Where(l => l.OrderId == id).ToList();

    public async Task<List<OrderLine>> LinesOfAsync(int id) => await db.Lines.Where(l => l.OrderId == id).ToListAsync();
}

/// <summary>Quotes from three carriers at once.</summary>
public sealed class QuoteService
{
    public async Task<decimal> CheapestAsync()
    {
        var a = QuoteAsync("a");
        var b = QuoteAsync("b");
        var c = QuoteAsync("c");
        await Task.WhenAll(a, b, c);
        return Math.Min(a.Result, Math.Min(b.Result, c.Result));
    }

    public decimal Known() => Task.FromResult(4.5m).Result;

    public async Task<decimal> FastPathAsync()
    {
        var pending = QuoteAsync("cache");
        if (pending.IsCompletedSuccessfully)
        {
            return pending.Result;
        }
        return await pending;
    }

    private static async Task<decimal> QuoteAsync(string carrier)
    {
        await Task.Delay(10);
        return carrier.Length;
    }
}

public static class Checksum
{
    public static int Compute(int seed)
    {
        var sum = seed;
        for (var i = 0; i < 1000; i++)
        {
            sum = (sum * 31) + i;
        }
        return sum;
    }
}

/// <summary>Reprices the catalogue with every core.</summary>
public sealed class PriceService
{
    public int RepriceAll()
    {
        var prices = new int[64];
        Parallel.For(0, prices.Length, i => prices[i] = Checksum.Compute(i));
        return prices.Sum();
    }
}

/// <summary>Starts a recalculation and records it when it finishes.</summary>
public sealed class RecalculationService
{
    public Task Start() =>
        Task.Delay(10).ContinueWith(_ => Journal.Write("recalculated"), TaskScheduler.Default);
}

public static class Journal
{
    public static void Write(string entry) => File.AppendAllText("/var/log/shop/journal.log", entry + "\n");
}

/// <summary>Uploads arrive as the raw request body.</summary>
public static class Upload
{
    public static int Read(HttpRequest request)
    {
        using var reader = new StreamReader(request.Body);
        return reader.ReadToEnd().Length;
    }
}

public static class Buffers
{
    public static int RoundTrip()
    {
        using var buffer = new MemoryStream([1, 2, 3]);
        var bytes = new byte[3];
        return buffer.Read(bytes, 0, 3);
    }
}

/// <summary>A request counter: the lock only touches memory.</summary>
public sealed class Counter
{
    private readonly object _gate = new();
    private int _value;

    public int Next()
    {
        lock (_gate)
        {
            return ++_value;
        }
    }
}

/// <summary>A cache a background loop rebuilds while holding its lock.</summary>
public sealed class SlowCache
{
    private readonly object _gate = new();
    private Dictionary<string, string> _entries = new(StringComparer.Ordinal);

    public string? Get(string key)
    {
        lock (_gate)
        {
            return _entries.GetValueOrDefault(key);
        }
    }

    public void Rebuild()
    {
        lock (_gate)
        {
            Thread.Sleep(200);
            _entries = new Dictionary<string, string>(StringComparer.Ordinal) { ["home"] = "banner" };
        }
    }
}

public sealed class CacheRefresher(SlowCache cache) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        while (!stoppingToken.IsCancellationRequested)
        {
            cache.Rebuild();
            await Task.Delay(TimeSpan.FromMinutes(1), stoppingToken);
        }
    }
}

/// <summary>Loads the catalogue before the first request.</summary>
public sealed class CatalogWarmer : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        _ = File.ReadAllBytes("/var/shop/catalog.bin");
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}

/// <summary>Flushes the metrics buffer every second.</summary>
public sealed class Flusher : IDisposable
{
    private readonly Timer _timer;

    public Flusher() => _timer = new Timer(_ => Flush(), null, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1));

    public void Dispose() => _timer.Dispose();

    private static void Flush() => File.WriteAllText("/var/shop/metrics.txt", "ok");
}

/// <summary>Polls the partner on a PeriodicTimer, outside any hosted service.</summary>
public sealed class PartnerPoller
{
    public async Task PollAsync(CancellationToken ct)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(5));
        while (await timer.WaitForNextTickAsync(ct))
        {
            Thread.Sleep(50);
        }
    }
}

public static class Legacy
{
    public static void Sleep() => Thread.Sleep(10); // tplab-ignore: a 10 ms pause the vendor requires, measured harmless
}

public sealed class Branchy
{
    public int Get(int id)
    {
        if (id > 1000)
        {
            Thread.Sleep(100);
        }
        return id;
    }
}

/// <summary>The partner's SOAP client: synchronous all the way down (declared in tplab-scan.json).</summary>
public sealed class SoapClient
{
    public string Call(string action) => action;
}

public interface IRatesProvider
{
    decimal Rate(string currency);
}

public sealed class RatesLoader(IReadOnlyDictionary<string, decimal> rates) : IRatesProvider
{
    public decimal Rate(string currency) => rates[currency];

    public static RatesLoader Load(ILogger<RatesLoader> logger)
    {
        logger.LogInformation("loading rates");
        var text = new HttpClient().GetStringAsync("http://rates.internal/today").GetAwaiter().GetResult();
        return new RatesLoader(new Dictionary<string, decimal>(StringComparer.Ordinal) { ["EUR"] = text.Length });
    }
}
