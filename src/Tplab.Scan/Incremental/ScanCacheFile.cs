using System.Text.Json.Serialization;
using Tplab.Blocking;
using Tplab.Common.Json;
using Tplab.Scan.Findings;
using Tplab.Scan.Roots;

namespace Tplab.Scan.Incremental;

/// <summary>
/// The scan cache's one format (<c>obj/tplab-scan/scan-cache.json</c>; docs/scan.md "The cache"): what a scan read, each
/// file with its size, modification time and SHA-256, the folders whose listing a glob reads, the build of tplab and
/// the options that change results, the projects as MSBuild saw them (<see cref="CachedProjectFacts"/>; null when they
/// cannot be rebuilt without it), and the result itself. Written by <see cref="ScanCache"/> through
/// <c>AtomicFile</c>, read back through <c>InputFile</c> (bounded) and <see cref="CachedResult.Validated"/>: a file
/// that does not hold exactly this shape is a full scan, never a wrong answer.
/// </summary>
internal sealed record ScanCacheFile(
    [property: JsonRequired] int SchemaVersion,
    [property: JsonRequired] string Tool,
    [property: JsonRequired] string Options,
    [property: JsonRequired] IReadOnlyList<CachedInput> Inputs,
    [property: JsonRequired] IReadOnlyList<CachedListing> Listings,
    IReadOnlyList<CachedProjectFacts>? Projects,
    [property: JsonRequired] CachedResult Result,
    CachedWalks? Walks = null)
{
    // 2: the projects' facts (a source edit rebuilds them without MSBuild) and their assemblies among the inputs.
    // 3: each project's generated sources (reused for a project whose generator input is unchanged).
    // 4: each source's declaration surface (a body-only edit leaves the generated sources of the projects that reference it as they were).
    // 5: the walks (an edit inside bodies walks again only the entry points it can affect).
    // 6: each entry point's rank among its file's declarations (found again after an edit of its file that moves it).
    public const int Version = 6;

    public const string FileName = "scan-cache.json";
}

/// <summary>A file the scan read: its size (-1: it did not exist, as a default config that may appear later), modification time (UTC ticks) and SHA-256.</summary>
internal sealed record CachedInput(string Path, long Size, long ModifiedTicks, string Sha256);

/// <summary>A folder whose C#, project and props files a glob picks up: the SHA-256 of their sorted relative names (one added or deleted changes it).</summary>
internal sealed record CachedListing(string Folder, int Files, string Sha256);

/// <summary>An entry point as the reports name it (<c>Roots/EntryPoint</c> without its symbols).</summary>
internal sealed record CachedEntry(
    string TypeName, string MethodName, string DisplayName, string File, int Line, bool IsLambda, CodePlace Place,
    HttpEndpoint? Endpoint, IReadOnlyList<string> Guards, string? Lifetime, string? Service);

/// <summary>A <see cref="Finding"/> with its entry points as indexes into <see cref="CachedResult.EntryPoints"/>.</summary>
internal sealed record CachedFinding(
    string Id, BlockingCall Call, Severity Severity, int Root, IReadOnlyList<ChainHop> Chain, CallContext Context,
    IReadOnlyList<string> Reasons, string Advice, IReadOnlyList<CachedSiteRoot> Roots, IReadOnlyList<CachedChain> OtherChains,
    string? Evidence, string? Suppression, bool RunsOnce, bool Baselined, string IdWithoutProject, IReadOnlyList<string> ChainFiles,
    Layer? Layer, bool ByReach);

internal sealed record CachedSiteRoot(int Root, Severity Severity, int Depth);

internal sealed record CachedChain(int Root, IReadOnlyList<ChainHop> Chain, IReadOnlyList<string> Reasons);

internal sealed record CachedProject(string Name, string Reason, IReadOnlyList<string> Details);

[JsonSerializable(typeof(ScanCacheFile))]
internal sealed partial class ScanCacheJsonContext : JsonSerializerContext
{
    /// <summary>One line per file: it is read by tplab only, and the largest solutions write tens of MB.</summary>
    public static ScanCacheJsonContext Compact { get; } = new(TplabJson.Options(indented: false));
}
