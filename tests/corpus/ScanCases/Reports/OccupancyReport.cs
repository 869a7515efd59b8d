using Npgsql;
using ScanCases.Infrastructure;

namespace ScanCases.Reports;

/// <summary>Seats sold across all events, straight from PostgreSQL.</summary>
public sealed class OccupancyReport(BoxOfficeDatabase database)
{
    public async Task<long> SeatsSoldAsync(CancellationToken ct)
    {
        await using var connection = database.Source.CreateConnection();
        await Task.Run(() => connection.Open(), ct);
        await using var command = new NpgsqlCommand("SELECT count(*) FROM \"Tickets\"", connection);
        return (long)(await command.ExecuteScalarAsync(ct) ?? 0L);
    }
}
