using System.Collections.Frozen;
using System.Text.Json;
using System.Text.Json.Serialization;
using Tplab.Blocking;
using Tplab.Common;
using Tplab.Common.Json;

namespace Tplab.Scan.Config;

/// <summary>
/// A team's own blocking APIs, added to the catalogue for a scan: the config file <c>tplab-scan.json</c> (docs/scan.md).
/// Read and written by this type only.
/// </summary>
public sealed record ScanConfig
{
    /// <summary>The file name looked for in the scanned folder when no --config is given.</summary>
    public const string DefaultFileName = "tplab-scan.json";

    /// <summary>Bumped when a field changes meaning.</summary>
    public const int CurrentSchema = 1;

    /// <summary>The kinds a config entry may name (the catalogue's families that a call of one's own can be).</summary>
    public static readonly IReadOnlyList<BlockingKind> Kinds =
    [
        BlockingKind.Sleep, BlockingKind.SyncOverAsync, BlockingKind.SyncWait, BlockingKind.SyncDatabaseIO, BlockingKind.SyncHttp,
        BlockingKind.SyncSocketIO, BlockingKind.SyncStreamIO, BlockingKind.Parallel,
    ];

    public int Schema { get; init; } = CurrentSchema;

    /// <summary>Calls that block, beyond the catalogue's.</summary>
    public IReadOnlyList<BlockingApi> BlockingCalls { get; init; } = [];

    /// <summary>The config in <paramref name="path"/>; a usage error (exit 2) naming the file when it cannot be read.</summary>
    public static ScanConfig Read(string path)
    {
        try
        {
            var config = JsonNulls.Check(JsonSerializer.Deserialize(InputFile.ReadText(path, "the scan config", InputLimit.ScanConfig), ScanConfigJson.Default.ScanConfig)
                ?? throw TplabException.Usage($"{path}: empty config"));
            if (config.Schema != CurrentSchema)
            {
                throw TplabException.Usage($"{path}: schema {config.Schema} is not one tplab reads (it reads {CurrentSchema})");
            }
            foreach (var api in config.BlockingCalls)
            {
                api.Validate(path);
            }
            return config;
        }
        catch (JsonException e)
        {
            throw TplabException.Usage($"{path}: not a tplab scan config ({TplabJson.Reason(e)})");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw TplabException.Usage($"could not read {path}: {e.Message}");
        }
    }

    /// <summary>Writes the config whole.</summary>
    public void Write(string path) => AtomicFile.WriteAllText(path, JsonSerializer.Serialize(this, ScanConfigJson.Default.ScanConfig) + "\n");

    /// <summary>The entries as catalogue rows, matched before the catalogue's own.</summary>
    public IReadOnlyList<BlockingCallCatalogue.Entry> Entries() =>
        [.. BlockingCalls.Select(b => new BlockingCallCatalogue.Entry(b.Type, b.Methods.ToFrozenSet(StringComparer.Ordinal), b.BlockingKind, b.Name))];
}

/// <summary>One blocking API of the team's: a type (exact metadata name, or a namespace prefix ending in '.'), its methods, their family.</summary>
/// <param name="Type"><c>Acme.Legacy.SoapClient</c>; a nested type is <c>Outer+Inner</c>, a generic one <c>Cache`1</c>.</param>
/// <param name="Methods">The method names; a property getter is <c>get_Name</c>.</param>
/// <param name="Kind">The family: sleep, sync-over-async, sync-wait, sync-database-io, sync-http, sync-socket-io, sync-stream-io, parallel.</param>
/// <param name="Name">The name findings give it (default: <c>Type.Method</c>).</param>
public sealed record BlockingApi(string Type, IReadOnlyList<string> Methods, string Kind, string? Name = null)
{
    [JsonIgnore]
    public BlockingKind BlockingKind => ScanConfig.Kinds.FirstOrDefault(k => PlaceWords.KindId(k) == Kind);

    internal void Validate(string path)
    {
        if (string.IsNullOrWhiteSpace(Type) || Methods is null || Methods.Count == 0 || Methods.Any(string.IsNullOrWhiteSpace))
        {
            throw TplabException.Usage($"{path}: every blocking call needs a type and at least one method");
        }
        if (!ScanConfig.Kinds.Any(k => PlaceWords.KindId(k) == Kind))
        {
            throw TplabException.Usage($"{path}: {Type}: kind '{Kind}' is not one of {string.Join(", ", ScanConfig.Kinds.Select(PlaceWords.KindId))}");
        }
    }
}

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true, ReadCommentHandling = JsonCommentHandling.Skip, UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow,
    AllowTrailingCommas = true, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull, RespectRequiredConstructorParameters = true)]
[JsonSerializable(typeof(ScanConfig))]
internal sealed partial class ScanConfigJson : JsonSerializerContext;
