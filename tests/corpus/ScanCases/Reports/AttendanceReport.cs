using Microsoft.Extensions.Options;
using ScanCases.Infrastructure;

namespace ScanCases.Reports;

public sealed record Attendance(int EventId, int Scanned);

/// <summary>How many tickets were scanned at the gates; each report is archived for the promoter.</summary>
public sealed class AttendanceReport(ScanCounter counter, ReportArchive archive)
{
    public Task<Attendance> BuildAsync(int eventId) =>
        counter.CountAsync(eventId).ContinueWith(counted =>
        {
            var report = new Attendance(eventId, counted.Result);
            archive.SaveAsync(report).Wait();
            return report;
        }, TaskScheduler.Default);
}

public sealed class ScanCounter(IOptions<BoxOfficeOptions> options)
{
    public async Task<int> CountAsync(int eventId)
    {
        await Task.Delay(options.Value.UpstreamDelayMs / 2);
        return eventId * 3 % 1000;
    }
}

/// <summary>The promoters' document store.</summary>
public sealed class ReportArchive(IOptions<BoxOfficeOptions> options)
{
    public async Task SaveAsync(Attendance report)
    {
        await Task.Delay(options.Value.UpstreamDelayMs);
        GC.KeepAlive(report);
    }
}
