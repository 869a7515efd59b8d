using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;
using Tplab.Blocking;
using Tplab.Common.Json;
using Tplab.Diagnose.Chains;

namespace Tplab.Diagnose.Output;

/// <summary>
/// The diagnosis as JSON (schema 3, docs/schemas/diagnosis.schema.json): one definition, written by
/// <see cref="DiagnosisJsonWriter"/> and read back by <see cref="DiagnosisJson.Read"/>.
/// </summary>
public sealed record DiagnosisDocument(
    int SchemaVersion,
    int ProcessId,
    string ProcessName,
    string? RuntimeVersion,
    DiagnosisVerdict Verdict,
    double CaptureSeconds,
    double AnswerSeconds,
    IReadOnlyList<CulpritDocument> Culprits,
    EvidenceDocument Evidence,
    IReadOnlyList<HotMethodDocument> HotMethods,
    PoolDocument Pool,
    SourceDocument Source);

/// <summary>Where the stacks came from, and where the source files are.</summary>
/// <param name="Kind">live, trace or dump.</param>
/// <param name="Path">The --trace or --dump file; null when live.</param>
/// <param name="Missing">What a trace lacks, in one line; null when nothing.</param>
/// <param name="Root">The app's source root the culprits' files are relative to; null when no PDB was read.</param>
/// <param name="Lines">Which PDBs were missing or did not match (those methods have no file and line), in one line; null when none.</param>
public sealed record SourceDocument(string Kind, string? Path, string? Missing, string? Root, string? Lines);

/// <summary>One culprit: the blocking call, the method that makes it and where, the chain from the root, the threads held, the advice.</summary>
public sealed record CulpritDocument(
    string BlockingCall,
    [property: JsonConverter(typeof(BlockingKindWords))] BlockingKind BlockingKind,
    string? BlockingOn,
    string? UserFrame,
    string? File,
    int? Line,
    EndpointDocument? Endpoint,
    int OtherEndpoints,
    [property: JsonConverter(typeof(WordConverter<CodePlace>))] CodePlace Place,
    string? Service,
    IReadOnlyList<HopDocument> Chain,
    IReadOnlyList<CallContext> Context,
    double Threads,
    int DistinctThreads,
    double Share,
    IReadOnlyList<string> Stack,
    string Advice);

/// <summary>One hop of the chain: the method as users know it, the line of its call to the next hop, and how it is known.</summary>
public sealed record HopDocument(string Method, string? File, int? Line, HopSource From);

/// <summary>The endpoint of the requests held: HTTP method, route, and the MVC action when MVC named it.</summary>
public sealed record EndpointDocument(string Method, string Route, string? Action);

public sealed record EvidenceDocument(
    int Samples, int WaitEvents, double SamplingIntervalMs, int PoolThreadsSeen, double BlockedThreads, string? Fallback,
    int ContentionEvents, int Requests, double BusyThreads, double FrameworkLockThreads);

public sealed record HotMethodDocument(string Method, double Threads, double Share);

public sealed record PoolDocument(
    string? Verdict, string? Evidence, int? ThreadsStart, int? ThreadsPeak, long? QueuePeak,
    IReadOnlyDictionary<string, int>? InjectionsByReason, string? Unavailable);

/// <summary>
/// Blocking kinds as <see cref="PlaceWords.KindId"/> names them (two say more than the enum: <c>unrecognised-wait</c>,
/// <c>task-run</c>); a word that names none is refused, listing the words.
/// </summary>
public sealed class BlockingKindWords : JsonConverter<BlockingKind>
{
    public override BlockingKind Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        var word = reader.TokenType == JsonTokenType.String ? reader.GetString() : null;
        return Enum.GetValues<BlockingKind>().Where(v => PlaceWords.KindId(v) == word).Select(v => (BlockingKind?)v).FirstOrDefault()
            ?? throw new JsonException($"{(word is null ? "not a word" : $"'{word}'")} is not one of {string.Join(", ", Enum.GetValues<BlockingKind>().Select(PlaceWords.KindId))}");
    }

    public override void Write(Utf8JsonWriter writer, BlockingKind value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteStringValue(PlaceWords.KindId(value));
    }
}

/// <summary>The source-generated serializer of <see cref="DiagnosisDocument"/>.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true, DefaultIgnoreCondition = JsonIgnoreCondition.Never)]
[JsonSerializable(typeof(DiagnosisDocument))]
internal sealed partial class DiagnosisJsonContext : JsonSerializerContext;

/// <summary>Writes and reads diagnosis documents.</summary>
public static class DiagnosisJson
{
    /// <summary>The schema this version writes and reads. 3: <c>chain</c> of hops with file, line and source; <c>inlinedInto</c> gone.</summary>
    public const int Schema = 3;

    private static readonly DiagnosisJsonContext Context = new(WithWords(TplabJson.Options(indented: true)));

    // The shared options of every format, and the enums that appear in lists (a culprit's context) as their words.
    private static JsonSerializerOptions WithWords(JsonSerializerOptions options)
    {
        options.Converters.Add(new WordConverter<DiagnosisVerdict>());
        options.Converters.Add(new WordConverter<HopSource>());
        options.Converters.Add(new WordConverter<CallContext>());
        return options;
    }

    public static string Write(DiagnosisDocument document) => JsonSerializer.Serialize(document, Context.DiagnosisDocument);

    /// <summary>
    /// A document written by tplab diagnose --format json; a usage error for another schema or what is not one. Its
    /// version is <c>schemaVersion</c>, as in every other format; files written before called it <c>schema</c>, and read the same.
    /// </summary>
    public static DiagnosisDocument Read(string json)
    {
        int schema;
        try
        {
            var root = JsonNode.Parse(json) as JsonObject ?? throw Common.TplabException.Usage("not a diagnosis: not a JSON object");
            if (!root.ContainsKey("schemaVersion") && root["schema"] is { } old)
            {
                root.Remove("schema");
                root["schemaVersion"] = old;
                json = root.ToJsonString();
            }
            schema = root["schemaVersion"] is JsonValue v && v.GetValueKind() == JsonValueKind.Number && v.TryGetValue<int>(out var n) ? n : 0;
        }
        catch (JsonException e)
        {
            throw Common.TplabException.Usage($"not a diagnosis: {e.Message}");
        }
        catch (ArgumentException)
        {
            throw Common.TplabException.Usage("not a diagnosis: a key is given twice");
        }
        if (schema != Schema)
        {
            throw Common.TplabException.Usage($"a diagnosis of schema {schema}; this tplab reads schema {Schema} (run diagnose again)");
        }
        return TplabJson.Read(json, Context.DiagnosisDocument, "not a diagnosis");
    }
}
