using System.Diagnostics;
using System.Text.Json;

namespace Tplab.Tests.Support;

/// <summary>
/// Validates files against a JSON Schema with ajv (tests/schemas/validate.mjs; test.sh installs it with npm ci):
/// tplab's own schemas in docs/schemas/, or "sarif" for the SARIF 2.1.0 schema the SARIF Multitool ships.
/// </summary>
internal static class SchemaValidation
{
    /// <summary>tests/schemas with its node_modules, or null when node or the packages are missing.</summary>
    public static string? Folder { get; } = Find();

    /// <summary>Why a schema check is skipped when <see cref="Folder"/> is null.</summary>
    public const string Missing = "node or tests/schemas/node_modules is missing: test.sh installs them (npm ci in tests/schemas)";

    /// <summary>The schema of tplab's own file format <paramref name="name"/> (docs/schemas/NAME.schema.json).</summary>
    public static string SchemaOf(string name) => Path.Combine(RepoPaths.Root, "docs", "schemas", name + ".schema.json");

    /// <summary>Asserts that every file in <paramref name="files"/> validates against <paramref name="schema"/> (a path, or "sarif").</summary>
    public static async Task AssertValidAsync(string schema, params string[] files)
    {
        Assert.True(Folder is not null, "tests/schemas is not installed (run test.sh, or npm ci in tests/schemas)");
        var info = new ProcessStartInfo("node") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = Folder };
        info.ArgumentList.Add(Path.Combine(Folder!, "validate.mjs"));
        info.ArgumentList.Add(schema);
        foreach (var file in files)
        {
            info.ArgumentList.Add(file);
        }
        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        await process.WaitForExitAsync(cts.Token);
        var output = (await stdout).Trim();
        Assert.True(output.Length > 0, $"validate.mjs printed nothing (exit {process.ExitCode}): {await stderr}");
        using var doc = JsonDocument.Parse(output.Split('\n')[^1]);
        var errors = doc.RootElement.GetProperty("errors").EnumerateArray().Select(e => e.GetString()).ToList();
        Assert.True(doc.RootElement.GetProperty("valid").GetBoolean(), $"not valid against {schema}:\n{string.Join('\n', errors.Take(20))}");
    }

    private static string? Find()
    {
        var folder = Path.Combine(RepoPaths.Root, "tests", "schemas");
        return Preconditions.Node && Directory.Exists(Path.Combine(folder, "node_modules", "ajv")) ? folder : null;
    }
}

/// <summary>A fact that validates against JSON Schemas: skipped, with how to install, when node or tests/schemas' packages are missing.</summary>
public sealed class SchemaFactAttribute : FactAttribute
{
    public SchemaFactAttribute()
    {
        if (SchemaValidation.Folder is null)
        {
            Skip = SchemaValidation.Missing;
        }
    }
}
