using System.Text.Json.Serialization;

namespace Tplab.Scan.Output;

// The subset of SARIF 2.1.0 tplab writes, as typed records (names as the specification spells them).

internal sealed record SarifLog([property: JsonPropertyName("$schema")] string Schema, string Version, IReadOnlyList<SarifRun> Runs);

internal sealed record SarifRun(
    SarifTool Tool, IReadOnlyDictionary<string, SarifArtifactLocation> OriginalUriBaseIds, IReadOnlyList<SarifResult> Results,
    IReadOnlyList<SarifInvocation> Invocations, string ColumnKind);

internal sealed record SarifTool(SarifDriver Driver);

internal sealed record SarifDriver(string Name, string Version, string FullName, IReadOnlyList<SarifRule> Rules);

internal sealed record SarifRule(string Id, string Name, SarifMessage ShortDescription, SarifMessage FullDescription, SarifConfiguration DefaultConfiguration, SarifProperties Properties);

internal sealed record SarifConfiguration(string Level);

internal sealed record SarifProperties(IReadOnlyList<string> Tags);

internal sealed record SarifMessage(string Text);

internal sealed record SarifResult(
    string RuleId, int RuleIndex, string Level, SarifMessage Message, IReadOnlyList<SarifLocation> Locations, IReadOnlyList<SarifLocation>? RelatedLocations,
    IReadOnlyList<SarifCodeFlow> CodeFlows, IReadOnlyDictionary<string, string> PartialFingerprints, string BaselineState, IReadOnlyList<SarifSuppression>? Suppressions,
    SarifResultProperties Properties);

internal sealed record SarifResultProperties(
    string Id, string Root, string? HttpMethod, string? Route, string Place, string UserFrame, string BlockingCall, IReadOnlyList<string> Reasons, string Advice,
    int RootCount);

internal sealed record SarifSuppression(string Kind, string Justification);

internal sealed record SarifLocation(SarifPhysicalLocation PhysicalLocation, SarifMessage? Message, IReadOnlyList<SarifLogicalLocation>? LogicalLocations)
{
    /// <summary>A related location's id, unique within its result.</summary>
    public int? Id { get; init; }
}

internal sealed record SarifLogicalLocation(string FullyQualifiedName, string Kind);

internal sealed record SarifPhysicalLocation(SarifArtifactLocation ArtifactLocation, SarifRegion Region);

internal sealed record SarifArtifactLocation(string Uri, string? UriBaseId);

internal sealed record SarifRegion(int StartLine, int StartColumn);

internal sealed record SarifCodeFlow(SarifMessage Message, IReadOnlyList<SarifThreadFlow> ThreadFlows);

internal sealed record SarifThreadFlow(IReadOnlyList<SarifThreadFlowLocation> Locations);

internal sealed record SarifThreadFlowLocation(SarifLocation Location, int NestingLevel, int ExecutionOrder);

internal sealed record SarifInvocation(bool ExecutionSuccessful, IReadOnlyList<SarifNotification>? ToolExecutionNotifications);

internal sealed record SarifNotification(SarifMessage Message, string Level);

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(SarifLog))]
internal sealed partial class SarifJson : JsonSerializerContext;
