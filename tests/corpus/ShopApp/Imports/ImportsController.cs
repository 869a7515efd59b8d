using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Mvc;
using ShopApp.Corpus;

namespace ShopApp.Imports;

[ApiController]
[Route("api/imports")]
public sealed class ImportsController : ControllerBase
{
    public static readonly ExpectedCulprit[] Expected =
    [
        ExpectedCulprit.Blocking("imports-readtoend", "POST", "/api/imports", "api/imports",
            "Imports.CsvImporter.Import", "StreamReader.ReadToEnd", Place.MvcAction)
            with
            {
                Chain =
                [
                    new("ImportsController.Post", "Imports/ImportsController.cs", "var rows = CsvImporter.Import(Request.Body);"),
                    new("CsvImporter.Import", "Imports/ImportsController.cs", "var text = reader.ReadToEnd();"),
                ],
            },
    ];

    /// <summary>Price lists uploaded by suppliers (CSV); the parser came from the old desktop importer.</summary>
    [HttpPost]
    public IActionResult Post()
    {
        // The importer reads synchronously; Kestrel refuses that unless allowed.
        HttpContext.Features.Get<IHttpBodyControlFeature>()!.AllowSynchronousIO = true;
        var rows = CsvImporter.Import(Request.Body);
        return Ok(new { rows });
    }
}

public static class CsvImporter
{
    public static int Import(Stream csv)
    {
        using var reader = new StreamReader(csv, leaveOpen: true);
        var text = reader.ReadToEnd();
        return text.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length;
    }
}
