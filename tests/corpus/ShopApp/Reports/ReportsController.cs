using Microsoft.AspNetCore.Mvc;
using ShopApp.Corpus;

namespace ShopApp.Reports;

[ApiController]
[Route("api/reports")]
public sealed class ReportsController(ReportService reports, ExportService exports) : ControllerBase
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("reports-semaphore", "GET", "/api/reports/daily", "api/reports/daily",
            "Reports.ReportService.BuildAsync", "SemaphoreSlim.Wait", Place.MvcAction)
            with
            {
                Chain =
                [
                    new("ReportsController.Daily", "Reports/ReportsController.cs", "await reports.BuildAsync(\"daily\", ct)"),
                    new("ReportService.BuildAsync", "Reports/ReportServices.cs", "_renderSlots.Wait(ct);"),
                ],
            },
        ExpectedCulprit.Blocking("exports-waitone", "GET", "/api/reports/export/3", "api/reports/export/{id}",
            "Reports.ExportService.Export", "WaitHandle.WaitOne", Place.MvcAction)
            with
            {
                Chain =
                [
                    new("ReportsController.Export", "Reports/ReportsController.cs", "File(exports.Export(id)"),
                    new("ExportService.Export", "Reports/ReportServices.cs", "job.Done.WaitOne();"),
                ],
            },
    ];

    [HttpGet("daily")]
    public async Task<IActionResult> Daily(CancellationToken ct) => Ok(await reports.BuildAsync("daily", ct));

    [HttpGet("export/{id:int}")]
    public IActionResult Export(int id) => File(exports.Export(id), "text/csv", $"export-{id}.csv");
}
