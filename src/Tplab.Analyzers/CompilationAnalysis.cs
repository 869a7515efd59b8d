using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using Tplab.Analyzers.Summaries;
using Tplab.Blocking;
using Tplab.Scan;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Roots;
using Tplab.Scan.Rules;

namespace Tplab.Analyzers;

/// <summary>
/// scan's analysis of one compilation, run once and kept per <see cref="Compilation"/>: its entry points, the call graph
/// over its source, the catalogue and rules along it, one finding per site — then the diagnostics grouped by syntax
/// tree, so each tree's semantic-model action reports its own (squiggles without a build).
/// </summary>
internal sealed class CompilationAnalysis
{
    /// <summary>scan's default <c>--max-depth</c> (<c>ScanOptions.DefaultMaxDepth</c>; a test holds them equal).</summary>
    internal const int MaxDepth = 40;

    private readonly Dictionary<SyntaxTree, List<Diagnostic>> _byTree;

    private CompilationAnalysis(Dictionary<SyntaxTree, List<Diagnostic>> byTree, IReadOnlyList<Finding> findings)
    {
        _byTree = byTree;
        Findings = findings;
    }

    /// <summary>The findings, as scan would report them for this compilation alone (suppressed ones left out).</summary>
    public IReadOnlyList<Finding> Findings { get; }

    /// <summary>The diagnostics whose location is in <paramref name="tree"/>.</summary>
    public IReadOnlyList<Diagnostic> For(SyntaxTree tree) => _byTree.TryGetValue(tree, out var list) ? list : [];

    public static CompilationAnalysis Run(Compilation compilation, AnalyzerOptions options, CancellationToken cancellationToken)
    {
        var additional = options.AdditionalFiles.GroupBy(f => f.Path, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.First(), StringComparer.Ordinal);
        var index = new SourceIndex([compilation], CommonFolder(compilation.SyntaxTrees.Select(t => t.FilePath)))
        {
            OtherFile = path => additional.TryGetValue(path, out var file) && file.GetText(cancellationToken) is { } text
                ? text.Lines.Select(l => l.ToString())
                : null,
        };
        // The referenced projects' summaries are catalogue rows here: a call into their blocking methods is a blocking call.
        var referenced = ReferencedSummaries.Of(compilation, cancellationToken);
        var graph = new CallGraph(index, new BlockingRules(referenced.Entries, index.Callers));
        var roots = RootFinder.Find(index, cancellationToken);
        var locks = new LockAnalysis(graph, MaxDepth, cancellationToken);
        var (findings, _) = new FindingBuilder(graph, locks, roots, MaxDepth).Build(SilentProgress.Instance, cancellationToken);

        var trees = index.Trees.ToDictionary(index.RelativePath, t => t, StringComparer.Ordinal);
        var byTree = new Dictionary<SyntaxTree, List<Diagnostic>>();
        foreach (var finding in findings)
        {
            if (!trees.TryGetValue(finding.Site.File, out var tree))
            {
                continue;
            }
            var through = referenced.Of(finding.Call.Frame.OpenTypeName, finding.Call.Frame.MethodName);
            var descriptor = DiagnosticIds.Of(finding.Call.Kind);
            var location = Locate(tree, finding.Site, cancellationToken);
            var properties = through is { } from ? Properties(finding).Add(DiagnosticIds.FromAssemblyProperty, from.Assembly) : Properties(finding);
            object[] arguments = [finding.Call.Name, finding.Root.Key, ChainText.Of(finding, through?.Line), finding.Id];
            // scan's note (a hop that saves no thread) is an info; its errors and warnings are the descriptor's warning.
            var diagnostic = finding.Severity == Severity.Note
                ? Diagnostic.Create(descriptor, location, DiagnosticSeverity.Info, additionalLocations: null, properties, arguments)
                : Diagnostic.Create(descriptor, location, properties, arguments);
            if (!byTree.TryGetValue(tree, out var list))
            {
                byTree[tree] = list = [];
            }
            list.Add(diagnostic);
        }
        return new CompilationAnalysis(byTree, findings);
    }

    private static ImmutableDictionary<string, string?> Properties(Finding finding) => ImmutableDictionary<string, string?>.Empty
        .Add(DiagnosticIds.FindingIdProperty, finding.Id)
        .Add(DiagnosticIds.KindProperty, finding.Call.Kind.ToString())
        .Add(DiagnosticIds.CallProperty, finding.Call.Name)
        .Add(DiagnosticIds.SeverityProperty, finding.Severity.ToString().ToLowerInvariant())
        .Add(DiagnosticIds.EntryPointProperty, finding.Root.Key);

    // The blocking member's token at the site's 1-based line and column (scan's CallPosition).
    private static Location Locate(SyntaxTree tree, ChainHop site, CancellationToken cancellationToken)
    {
        var text = tree.GetText(cancellationToken);
        if (site.Line < 1 || site.Line > text.Lines.Count)
        {
            return Location.None;
        }
        var line = text.Lines[site.Line - 1];
        var position = Math.Min(line.Start + Math.Max(site.Column - 1, 0), line.End);
        var token = tree.GetRoot(cancellationToken).FindToken(position);
        return token.Span.Length > 0 ? token.GetLocation() : Location.Create(tree, new TextSpan(position, 0));
    }

    // The folder every source file is under: paths are reported relative to it (a project's folder, or above when it links files).
    internal static string CommonFolder(IEnumerable<string> paths)
    {
        string? common = null;
        foreach (var path in paths.Where(p => p.Length > 0))
        {
            var folder = path.Substring(0, Math.Max(path.LastIndexOfAny(['/', '\\']), 0));
            if (common is null)
            {
                common = folder;
                continue;
            }
            var n = 0;
            while (n < common.Length && n < folder.Length && common[n] == folder[n])
            {
                n++;
            }
            if (n < common.Length && !(n < folder.Length ? folder[n] is '/' or '\\' : common[n] is '/' or '\\'))
            {
                n = Math.Max(common.LastIndexOfAny(['/', '\\'], Math.Max(n - 1, 0)), 0);
            }
            common = common.Substring(0, Math.Min(n, common.Length));
        }
        return common is { Length: > 0 } ? common : "/";
    }
}
