using System.Collections.Immutable;
using System.Globalization;
using Microsoft.CodeAnalysis;
using Tplab.Blocking;

namespace Tplab.Analyzers;

/// <summary>
/// The analyzer's diagnostics: one id per <see cref="BlockingKind"/> (<c>TPL0001</c> is <see cref="BlockingKind.Sleep"/>,
/// <c>"TPL" + ((int)kind + 1)</c> in four digits), and the names of the properties every diagnostic carries, the contract a
/// code fix reads. docs/analyzers.md has the table.
/// </summary>
public static class DiagnosticIds
{
    /// <summary>The help page of every id: scan's, whose findings these are.</summary>
    public const string HelpLink = "https://github.com/tplab/tplab/blob/main/docs/scan.md";

    /// <summary>The category of every id.</summary>
    public const string Category = "Reliability";

    /// <summary>Property: scan's <c>FindingId</c> of the site (<c>tplab fix --finding ID</c>).</summary>
    public const string FindingIdProperty = "findingId";

    /// <summary>Property: the <see cref="BlockingKind"/>'s name (<c>Sleep</c>, <c>SyncOverAsync</c>, …).</summary>
    public const string KindProperty = "kind";

    /// <summary>Property: the blocking call as the catalogue names it (<c>Thread.Sleep</c>, <c>Task.Result</c>).</summary>
    public const string CallProperty = "call";

    /// <summary>Property: scan's severity of the site from its worst entry point (<c>error</c>, <c>warning</c>, <c>note</c>).</summary>
    public const string SeverityProperty = "severity";

    /// <summary>Property: the entry point the chain starts at (<c>GET /orders/{id}</c>).</summary>
    public const string EntryPointProperty = "entryPoint";

    /// <summary>Property, on a call into another assembly's blocking method: that assembly's name (from its summary).</summary>
    public const string FromAssemblyProperty = "fromAssembly";

    /// <summary>The id of a summary the analyzer cannot read (another version): said once per referenced assembly, never a finding.</summary>
    public const string UnreadableSummaryId = "TPL0100";

    /// <summary>The id of <paramref name="kind"/>: <c>TPL0001</c> for <see cref="BlockingKind.Sleep"/>.</summary>
    public static string For(BlockingKind kind) => "TPL" + ((int)kind + 1).ToString("D4", CultureInfo.InvariantCulture);

    /// <summary>One descriptor per kind, in the enum's order (index = (int)kind).</summary>
    public static ImmutableArray<DiagnosticDescriptor> Descriptors { get; } =
        [.. ((BlockingKind[])Enum.GetValues(typeof(BlockingKind))).Select(Descriptor)];

    /// <summary>The descriptor of <paramref name="kind"/>.</summary>
    public static DiagnosticDescriptor Of(BlockingKind kind) => Descriptors[(int)kind];

    /// <summary>A summary of another version in a referenced assembly: ignored, said once (info).</summary>
    public static DiagnosticDescriptor UnreadableSummary { get; } = new(
        UnreadableSummaryId,
        "A referenced assembly's tplab summary is of another version",
        "tplab: the blocking summary of '{0}' is '{1}', which this analyzer does not read; calls into it are not followed (update Tplab.Analyzers in both projects)",
        Category,
        DiagnosticSeverity.Info,
        isEnabledByDefault: true,
        helpLinkUri: HelpLink,
        customTags: WellKnownDiagnosticTags.CompilationEnd);

    private static DiagnosticDescriptor Descriptor(BlockingKind kind) => new(
        For(kind),
        Title(kind),
        // scan's note: the awaited Task.Run holds a pool thread as the request's would have, and frees none.
        kind == BlockingKind.TaskRunOffload
            ? "{0} moves work that does not block to another pool thread and saves none: {1} → {2} (tplab fix --finding {3})"
            : "{0} blocks a pool thread: {1} → {2} (tplab fix --finding {3})",
        Category,
        DiagnosticSeverity.Warning,
        isEnabledByDefault: true,
        description: "Reached from an ASP.NET Core entry point of this project, the call holds a thread-pool thread while it waits. tplab scan reports the same site; tplab fix --finding ID (the id ends the message) rewrites it across files, with its behaviour checks, where the editor offers no code fix.",
        helpLinkUri: HelpLink);

    private static string Title(BlockingKind kind) => kind switch
    {
        BlockingKind.Sleep => "Thread.Sleep on a request path",
        BlockingKind.SyncOverAsync => "Sync over async (.Result, .Wait(), GetResult()) on a request path",
        BlockingKind.Lock => "A lock held around slow work on a request path",
        BlockingKind.SyncWait => "A synchronous wait on a request path",
        BlockingKind.SyncDatabaseIO => "Synchronous database I/O on a request path",
        BlockingKind.SyncHttp => "Synchronous HTTP on a request path",
        BlockingKind.SyncSocketIO => "Synchronous socket I/O on a request path",
        BlockingKind.SyncStreamIO => "Synchronous stream or file I/O on a request path",
        BlockingKind.Unrecognised => "A blocking call on a request path",
        BlockingKind.Parallel => "A Parallel loop on a request path",
        BlockingKind.TaskRunOffload => "await Task.Run on a request path saves no thread",
        _ => kind.ToString(),
    };
}
