using System.Collections.Concurrent;
using ShopApp.Corpus;

namespace ShopApp.Content;

public static class BannerEndpoints
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("banners-mres", "GET", "/api/banners/home", "/api/banners/{slot}",
            "Content.BannerCache.Get", "ManualResetEventSlim.Wait", Place.MinimalApi)
            with
            {
                Chain =
                [
                    new("GET /api/banners/{slot} handler", "Content/BannerEndpoints.cs", "Results.Ok(banners.Get(slot))"),
                    new("BannerCache.Get", "Content/BannerEndpoints.cs", "refresh.Completed.Wait();"),
                ],
            },
    ];

    public static void MapBanners(this IEndpointRouteBuilder app) =>
        app.MapGet("/api/banners/{slot}", (string slot, BannerCache banners) => Results.Ok(banners.Get(slot)));
}

/// <summary>Banners come from the CMS; a refresher thread fetches the requested slots in batches.</summary>
public sealed class BannerCache
{
    private readonly BlockingCollection<Refresh> _pending = [];

    public BannerCache()
    {
        var refresher = new Thread(RefreshLoop) { IsBackground = true, Name = "banner refresher" };
        refresher.Start();
    }

    public string Get(string slot)
    {
        var refresh = new Refresh(slot);
        _pending.Add(refresh);
        refresh.Completed.Wait();
        refresh.Completed.Dispose();
        return refresh.Html!;
    }

    private void RefreshLoop()
    {
        foreach (var first in _pending.GetConsumingEnumerable())
        {
            var batch = new List<Refresh> { first };
            while (_pending.TryTake(out var more))
            {
                batch.Add(more);
            }
            Thread.Sleep(300);
            foreach (var refresh in batch)
            {
                refresh.Html = $"<div class=\"banner\">{refresh.Slot}</div>";
                refresh.Completed.Set();
            }
        }
    }

    private sealed class Refresh(string slot)
    {
        public string Slot { get; } = slot;

        public ManualResetEventSlim Completed { get; } = new(false);

        public string? Html { get; set; }
    }
}
