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
    SarifResultProperties Properties)
{
    /// <summary><c>tplab fix</c>'s proposed change for this result (null in scan's logs).</summary>
    public IReadOnlyList<SarifFix>? Fixes { get; init; }
}

internal sealed record SarifResultProperties(
    string Id, string Root, string? HttpMethod, string? Route, string Place, string UserFrame, string BlockingCall, IReadOnlyList<string> Reasons, string Advice,
    int RootCount)
{
    /// <summary><c>tplab fix</c>: fixed, partly-fixed or refused (null in scan's logs).</summary>
    public string? FixStatus { get; init; }

    /// <summary><c>tplab fix</c>: why a finding was refused, or what a partial fix left.</summary>
    public string? FixReason { get; init; }

    /// <summary><c>tplab fix</c>: the id (<c>TPFIX0xx</c>) of the reason it was refused or stopped at a boundary.</summary>
    public string? FixCheck { get; init; }
}

internal sealed record SarifSuppression(string Kind, string Justification);

internal sealed record SarifLocation(SarifPhysicalLocation PhysicalLocation, SarifMessage? Message, IReadOnlyList<SarifLogicalLocation>? LogicalLocations)
{
    /// <summary>A related location's id, unique within its result.</summary>
    public int? Id { get; init; }
}

internal sealed record SarifLogicalLocation(string FullyQualifiedName, string Kind);

internal sealed record SarifPhysicalLocation(SarifArtifactLocation ArtifactLocation, SarifRegion Region);

internal sealed record SarifArtifactLocation(string Uri, string? UriBaseId);

internal sealed record SarifRegion(int StartLine, int StartColumn)
{
    /// <summary>The end (exclusive column), for a region that spans text: a fix's deleted region.</summary>
    public int? EndLine { get; init; }

    public int? EndColumn { get; init; }

    /// <summary>The same region in UTF-16 code units from the start of the file (a fix's deleted region carries both).</summary>
    public int? CharOffset { get; init; }

    public int? CharLength { get; init; }
}

internal sealed record SarifFix(SarifMessage Description, IReadOnlyList<SarifArtifactChange> ArtifactChanges);

internal sealed record SarifArtifactChange(SarifArtifactLocation ArtifactLocation, IReadOnlyList<SarifReplacement> Replacements);

/// <summary>Deletes <see cref="DeletedRegion"/> of the original file and puts <see cref="InsertedContent"/> there (none: a deletion).</summary>
internal sealed record SarifReplacement(SarifRegion DeletedRegion, SarifArtifactContent? InsertedContent);

internal sealed record SarifArtifactContent(string Text);

internal sealed record SarifCodeFlow(SarifMessage Message, IReadOnlyList<SarifThreadFlow> ThreadFlows);

internal sealed record SarifThreadFlow(IReadOnlyList<SarifThreadFlowLocation> Locations);

internal sealed record SarifThreadFlowLocation(SarifLocation Location, int NestingLevel, int ExecutionOrder);

internal sealed record SarifInvocation(bool ExecutionSuccessful, IReadOnlyList<SarifNotification>? ToolExecutionNotifications);

internal sealed record SarifNotification(SarifMessage Message, string Level);

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(SarifLog))]
internal sealed partial class SarifJson : JsonSerializerContext;
