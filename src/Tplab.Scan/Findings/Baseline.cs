using System.Text.Json;
using System.Text.Json.Serialization;
using Tplab.Common;
using Tplab.Common.Json;

namespace Tplab.Scan.Findings;

/// <summary>
/// Findings a team accepts for now (<c>--baseline FILE</c>, written by <c>--write-baseline FILE</c>): keyed by site (the
/// finding's id: project, user method, blocking call, which of that method's calls of that name), never by line or entry
/// point, so edits elsewhere and route changes do not break it. Older files are still read: schema 2 (ids without the
/// project) matches each entry by the id as it was then (<see cref="FindingId.WithoutProject"/>), so it accepts that
/// site in every project that declares the method, as it did; schema 1 (keyed by entry point too) accepts its
/// method's calls of that name, whatever the entry point. <c>--write-baseline</c> writes schema 3. Read and written by
/// this type only.
/// </summary>
public sealed record Baseline
{
    /// <summary>Bumped when a field changes meaning (2: keyed by site, not by entry point; 3: the id names the project).</summary>
    public const int CurrentSchema = 3;

    public int Schema { get; init; } = CurrentSchema;

    /// <summary>What wrote it.</summary>
    public string Tool { get; init; } = "tplab scan";

    public IReadOnlyList<BaselineKey> Findings { get; init; } = [];

    /// <summary>
    /// Whether the baseline accepts <paramref name="key"/>: the same id; in a schema 2 file, the same id as it was
    /// written then (without the project); in a schema 1 entry (no id), the same method and call.
    /// </summary>
    public bool Contains(BaselineKey key)
    {
        ArgumentNullException.ThrowIfNull(key);
        return Findings.Any(k => k.Id.Length == 0 ? k.UserMethod == key.UserMethod && k.BlockingCall == key.BlockingCall
            : Schema == 2 ? k.Id == key.IdWithoutProject
            : k.Id == key.Id);
    }

    /// <summary>The baseline for <paramref name="findings"/>, sorted so that it diffs well.</summary>
    public static Baseline Of(IEnumerable<Finding> findings) => new()
    {
        Findings = [.. findings.Select(f => f.Key).Distinct()
            .OrderBy(k => k.UserMethod, StringComparer.Ordinal).ThenBy(k => k.BlockingCall, StringComparer.Ordinal).ThenBy(k => k.Id, StringComparer.Ordinal)],
    };

    public static Baseline Read(string path)
    {
        try
        {
            var text = InputFile.ReadText(path, "--baseline", InputLimit.Baseline);
            var schema = SchemaOf(text);
            return schema switch
            {
                CurrentSchema or 2 => Complete(JsonNulls.Check(JsonSerializer.Deserialize(text, Json.Baseline) ?? new Baseline())) with { Schema = schema },
                1 => ReadSchema1(text),
                _ => throw TplabException.Usage($"{path}: baseline schema {schema} is not one tplab reads (it reads 1 to {CurrentSchema})"),
            };
        }
        catch (JsonException e)
        {
            throw TplabException.Usage($"{path}: not a tplab scan baseline ({TplabJson.Reason(e)})");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw TplabException.Usage($"could not read {path}: {e.Message}");
        }
    }

    public void Write(TextWriter writer) => TplabJson.Write(this, Json.Baseline, writer);

    // A key with a field null (the reader lets a null scalar through) would match nothing and fail later, inside tplab.
    private static Baseline Complete(Baseline baseline)
    {
        var i = baseline.Findings.ToList().FindIndex(k => k.Id is null || k.UserMethod is null || k.BlockingCall is null);
        return i < 0 ? baseline : throw new JsonException($"findings[{i}]: id, userMethod and blockingCall are each a string, not null");
    }

    private static int SchemaOf(string text)
    {
        using var document = JsonDocument.Parse(text);
        return document.RootElement.ValueKind == JsonValueKind.Object && document.RootElement.TryGetProperty("schema", out var s) && s.ValueKind == JsonValueKind.Number && s.TryGetInt32(out var n)
            ? n
            : throw new JsonException("no \"schema\" number");
    }

    // Schema 1: { root, userMethod, blockingCall } per finding. The root is dropped: a site is accepted from every entry point.
    private static Baseline ReadSchema1(string text)
    {
        using var document = JsonDocument.Parse(text);
        var keys = new List<BaselineKey>();
        if (document.RootElement.TryGetProperty("findings", out var findings) && findings.ValueKind == JsonValueKind.Array)
        {
            var i = 0;
            foreach (var f in findings.EnumerateArray())
            {
                if (f.ValueKind != JsonValueKind.Object)
                {
                    throw new JsonException($"findings[{i}]: {(f.ValueKind == JsonValueKind.Null ? "null" : "not an object")}");
                }
                i++;
                var method = f.TryGetProperty("userMethod", out var m) && m.ValueKind == JsonValueKind.String ? m.GetString() : null;
                var call = f.TryGetProperty("blockingCall", out var c) && c.ValueKind == JsonValueKind.String ? c.GetString() : null;
                if (method is null || call is null)
                {
                    throw new JsonException("a schema 1 finding needs userMethod and blockingCall");
                }
                keys.Add(new BaselineKey("", method, call));
            }
        }
        return new Baseline { Schema = 1, Findings = [.. keys.Distinct()] };
    }

    private static readonly BaselineJson Json = new(TplabJson.Options(indented: true));
}

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true, RespectRequiredConstructorParameters = true)]
[JsonSerializable(typeof(Baseline))]
internal sealed partial class BaselineJson : JsonSerializerContext;
