namespace ScanCases.Exports;

public static class ExportEndpoints
{
    public static IServiceCollection AddExports(this IServiceCollection services) => services.AddSingleton<ExportFolder>();

    public static void MapExports(this IEndpointRouteBuilder app)
    {
        var exports = app.MapGroup("/api/exports");
        exports.MapGet("/files", (ExportFolder folder) => Results.Ok(folder.List()));
        exports.MapGet("/kinds", () => Results.Ok(ExportFolder.Kinds()));
        exports.MapGet("/{name}/checksum", (string name, ExportFolder folder) =>
            folder.Checksum(name) is { } sum ? Results.Ok(new { name, sha256 = sum }) : Results.NotFound());
        exports.MapGet("/{name}", (string name, ExportFolder folder) =>
            folder.Download(name) is { } file ? Results.File(file, "text/csv", name) : Results.NotFound());
    }
}
