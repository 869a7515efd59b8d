using System.Text;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;
using ShopApp.Corpus;
using ShopApp.Infrastructure;

namespace ShopApp.Documents;

[ApiController]
[Route("api/documents")]
public sealed class DocumentsController(PdfRenderer renderer) : ControllerBase
{
    public static readonly ExpectedCulprit[] Expected =
    [
        // The action awaits Task.Run, so the renderer runs on another pool thread, which it holds for the fonts' download.
        ExpectedCulprit.Blocking("documents-taskrun", "GET", "/api/documents/7/pdf", "api/documents/{id}/pdf",
            "Documents.FontStore.Load", "GetAwaiter().GetResult()", Place.MvcAction)
            with
            {
                Chain =
                [
                    new("DocumentsController.Pdf (lambda)", "Documents/DocumentsController.cs", "var pdf = await Task.Run(() => renderer.Render(id), ct);"),
                    new("PdfRenderer.Render", "Documents/DocumentsController.cs", "var font = fonts.Load(\"Inter\");"),
                    new("FontStore.Load", "Documents/DocumentsController.cs", "public string Load(string family) =>"),
                ],
                RunsIn = "task-run",
            },
    ];

    /// <summary>Invoices and delivery notes as PDF; the renderer is a port of the desktop tool and is synchronous.</summary>
    [HttpGet("{id:int}/pdf")]
    public async Task<IActionResult> Pdf(int id, CancellationToken ct)
    {
        // Off the request thread, so the renderer's work does not hold it.
        var pdf = await Task.Run(() => renderer.Render(id), ct);
        return File(pdf, "application/pdf", $"document-{id}.pdf");
    }
}

public sealed class PdfRenderer(FontStore fonts)
{
    public byte[] Render(int id)
    {
        var font = fonts.Load("Inter");
        return Encoding.ASCII.GetBytes($"%PDF-1.7 document {id} set in {font}");
    }
}

/// <summary>Fonts come from the asset service.</summary>
public sealed class FontStore(IOptions<ShopOptions> options)
{
    public string Load(string family) => DownloadAsync(family).GetAwaiter().GetResult();

    private async Task<string> DownloadAsync(string family)
    {
        await Task.Delay(options.Value.UpstreamDelayMs);
        return family + "-Regular";
    }
}
