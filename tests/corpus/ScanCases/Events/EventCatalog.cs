using System.Text.Json;
using Microsoft.Extensions.Options;
using ScanCases.Infrastructure;

namespace ScanCases.Events;

public sealed record Event(int Id, string Name, int VenueId, DateTimeOffset StartsAt);

public sealed record EventDetails(int Id, string Description, IReadOnlyList<string> Artists);

/// <summary>This season's events, loaded at start-up; older ones come from the archive on disk.</summary>
public sealed class EventCatalog(EventArchive archive, IOptions<BoxOfficeOptions> options)
{
    private Dictionary<int, Event> _season = [];

    public async Task LoadAsync(CancellationToken ct)
    {
        await Task.Delay(options.Value.UpstreamDelayMs * 5, ct);
        var start = new DateTimeOffset(2026, 9, 1, 20, 0, 0, TimeSpan.FromHours(2));
        _season = Enumerable.Range(100, 100).ToDictionary(id => id, id => new Event(id, $"Concert {id}", 1 + id % 3, start.AddDays(id - 100)));
    }

    public Event? Find(int id)
    {
        if (_season.TryGetValue(id, out var current))
        {
            return current;
        }
        return archive.Load(id);
    }

    public IReadOnlyList<Event> Upcoming(int count) => [.. _season.Values.OrderBy(e => e.StartsAt).Take(count)];

    public async Task<EventDetails> DetailsAsync(int id, CancellationToken ct)
    {
        await Task.Delay(options.Value.UpstreamDelayMs, ct);
        return new EventDetails(id, $"An evening with ensemble {id}", ["Ensemble " + id]);
    }
}

/// <summary>Past seasons, one JSON file per event, shipped with the app.</summary>
public sealed class EventArchive
{
    private readonly string _folder = Path.Combine(AppContext.BaseDirectory, "Archive");

    public Event? Load(int id)
    {
        var path = Path.Combine(_folder, $"{id}.json");
        if (!File.Exists(path))
        {
            return null;
        }
        var json = File.ReadAllText(path);
        return JsonSerializer.Deserialize<Event>(json, JsonSerializerOptions.Web);
    }
}
