using System.Text.Json;
using System.Text.Json.Serialization;
using Tplab.Common;
using Tplab.Common.Json;

namespace Tplab.Scan.Findings;

/// <summary>
/// Findings a team accepts for now (<c>--baseline FILE</c>, written by <c>--write-baseline FILE</c>): keyed by root, user
/// method and blocking call, never by line, so edits elsewhere in a file do not break it. Read and written by this type only.
/// </summary>
public sealed record Baseline
{
    /// <summary>Bumped when a field changes meaning.</summary>
    public const int CurrentSchema = 1;

    public int Schema { get; init; } = CurrentSchema;

    /// <summary>What wrote it.</summary>
    public string Tool { get; init; } = "tplab scan";

    public IReadOnlyList<BaselineKey> Findings { get; init; } = [];

    public bool Contains(BaselineKey key) => Findings.Contains(key);

    /// <summary>The baseline for <paramref name="findings"/>, sorted so that it diffs well.</summary>
    public static Baseline Of(IEnumerable<Finding> findings) => new()
    {
        Findings = [.. findings.Select(f => f.Key).Distinct()
            .OrderBy(k => k.Root, StringComparer.Ordinal).ThenBy(k => k.UserMethod, StringComparer.Ordinal).ThenBy(k => k.BlockingCall, StringComparer.Ordinal)],
    };

    public static Baseline Read(string path)
    {
        try
        {
            var baseline = JsonNulls.Check(JsonSerializer.Deserialize(File.ReadAllText(path), Json.Baseline) ?? new Baseline());
            return baseline.Schema == CurrentSchema ? baseline
                : throw TplabException.Usage($"{path}: baseline schema {baseline.Schema} is not one tplab reads (it reads {CurrentSchema})");
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

    private static readonly BaselineJson Json = new(TplabJson.Options(indented: true));
}

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true, RespectRequiredConstructorParameters = true)]
[JsonSerializable(typeof(Baseline))]
internal sealed partial class BaselineJson : JsonSerializerContext;
