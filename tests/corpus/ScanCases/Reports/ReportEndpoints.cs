using ScanCases.Infrastructure;

namespace ScanCases.Reports;

public static class ReportEndpoints
{
    public static IServiceCollection AddReports(this IServiceCollection services) =>
        services
            .AddSingleton<SalesReport>()
            .AddSingleton<ScanCounter>()
            .AddSingleton<ReportArchive>()
            .AddSingleton<AttendanceReport>()
            .AddSingleton<OccupancyReport>();

    public static void MapReports(this IEndpointRouteBuilder app)
    {
        var reports = app.MapGroup("/api/reports");
        reports.MapGet("/sales", (SalesReport sales) => Results.Ok(sales.Build()));
        reports.MapGet("/attendance/{eventId:int}", async (int eventId, AttendanceReport attendance) =>
            Results.Ok(await attendance.BuildAsync(eventId)));
        reports.MapGet("/occupancy", async (OccupancyReport occupancy, CancellationToken ct) =>
            Results.Ok(new { seatsSold = await occupancy.SeatsSoldAsync(ct) }));
        reports.MapGet("/summary", async (RequestStats stats) =>
        {
            var summary = await Task.Run(() => stats.Snapshot());
            return Results.Ok(summary);
        });
    }
}
