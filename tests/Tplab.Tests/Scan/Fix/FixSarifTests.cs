using System.Text;
using System.Text.Json;
using Tplab.Common;
using Tplab.Scan.Output;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Fix;

/// <summary>
/// <c>tplab fix --format sarif</c> on a copy of the OrdersService: scan's results under scan's fingerprints, each fixed
/// one with SARIF fixes whose replacements, applied to the original files, give the bytes <c>--apply</c> writes; the
/// log valid against the SARIF 2.1.0 schema, as scan's is. The copies are the fix lane's (<see cref="OrdersCopies"/>):
/// the log of the original, the files of the copy <c>--apply</c> wrote.
/// </summary>
[Collection(TestCollections.Fix)]
public sealed class FixSarifTests(OrdersCopies copies)
{
    [Fact]
    public async Task FixSarif_ReplacementsOnTheOriginals_GiveTheBytesApplyWrites()
    {
        var scanned = new StringWriter();
        new SarifFormat().Write(await copies.ScanAsync(), scanned);
        using var scanLog = JsonDocument.Parse(scanned.ToString());
        var scanIds = scanLog.RootElement.GetProperty("runs")[0].GetProperty("results").EnumerateArray().Select(Fingerprint).ToHashSet(StringComparer.Ordinal);

        var (code, sarif) = await copies.SarifAsync();
        Assert.Equal(ExitCodes.Ok, code);
        using var log = JsonDocument.Parse(sarif);
        var run = log.RootElement.GetProperty("runs")[0];
        var results = run.GetProperty("results").EnumerateArray().ToList();
        Assert.NotEmpty(results);
        Assert.All(results, r => Assert.Contains(Fingerprint(r), scanIds));
        var fixedOnes = results.Where(r => r.GetProperty("properties").GetProperty("fixStatus").GetString() == "fixed").ToList();
        Assert.NotEmpty(fixedOnes);

        // Each file's replacements applied to the original's bytes, by the file's place in the copy.
        var root = new Uri(run.GetProperty("originalUriBaseIds").GetProperty("%SRCROOT%").GetProperty("uri").GetString()!);
        var expected = new Dictionary<string, byte[]>(StringComparer.Ordinal);
        foreach (var change in fixedOnes[0].GetProperty("fixes")[0].GetProperty("artifactChanges").EnumerateArray())
        {
            var location = change.GetProperty("artifactLocation");
            Assert.Equal("%SRCROOT%", location.GetProperty("uriBaseId").GetString());
            var path = new Uri(root, location.GetProperty("uri").GetString()).LocalPath;
            expected[Path.GetRelativePath(copies.OriginalRoot, path)] = Applied(File.ReadAllBytes(path), change.GetProperty("replacements"));
        }
        Assert.Contains(expected.Keys, p => p.EndsWith("OrderService.cs", StringComparison.Ordinal));

        var applied = await copies.AppliedAsync();
        Assert.Equal(ExitCodes.Ok, applied.Code);
        foreach (var (path, bytes) in expected)
        {
            Assert.True(bytes.AsSpan().SequenceEqual(File.ReadAllBytes(Path.Combine(applied.Root, path))), $"the SARIF replacements of {path} differ from what --apply wrote");
        }
    }

    [SchemaFact]
    public async Task FixSarif_ValidatesAgainstTheSarif210Schema()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-fix-sarif-").FullName;
        try
        {
            var (code, sarif) = await copies.SarifAsync();
            Assert.Equal(ExitCodes.Ok, code);
            var path = Path.Combine(folder, "fix.sarif");
            File.WriteAllText(path, sarif);
            await SchemaValidation.AssertValidAsync("sarif", path);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static string Fingerprint(JsonElement result) => result.GetProperty("partialFingerprints").GetProperty("tplabFinding/v3").GetString()!;

    // The replacements applied from the last: each deleted region found by charOffset/charLength, and checked to be the
    // same text as its line/column form says.
    private static byte[] Applied(byte[] original, JsonElement replacements)
    {
        var bom = original.AsSpan().StartsWith(Encoding.UTF8.Preamble) ? Encoding.UTF8.Preamble.ToArray() : [];
        var text = Encoding.UTF8.GetString(original, bom.Length, original.Length - bom.Length);
        var all = replacements.EnumerateArray().ToList();
        Assert.NotEmpty(all);
        foreach (var r in all.OrderByDescending(r => r.GetProperty("deletedRegion").GetProperty("charOffset").GetInt32()))
        {
            var region = r.GetProperty("deletedRegion");
            var offset = region.GetProperty("charOffset").GetInt32();
            var length = region.GetProperty("charLength").GetInt32();
            Assert.Equal(offset, OffsetOf(text, region.GetProperty("startLine").GetInt32(), region.GetProperty("startColumn").GetInt32()));
            Assert.Equal(offset + length, OffsetOf(text, region.GetProperty("endLine").GetInt32(), region.GetProperty("endColumn").GetInt32()));
            var inserted = r.TryGetProperty("insertedContent", out var content) ? content.GetProperty("text").GetString()! : "";
            text = string.Concat(text.AsSpan(0, offset), inserted, text.AsSpan(offset + length));
        }
        return [.. bom, .. Encoding.UTF8.GetBytes(text)];
    }

    private static int OffsetOf(string text, int line, int column)
    {
        var start = 0;
        for (var l = 1; l < line; l++)
        {
            start = text.IndexOf('\n', start) + 1;
        }
        return start + column - 1;
    }
}
