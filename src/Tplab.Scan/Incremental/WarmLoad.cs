using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Host;
using Microsoft.CodeAnalysis.Host.Mef;
using Microsoft.CodeAnalysis.Text;
using Tplab.Scan.Loading;

namespace Tplab.Scan.Incremental;

/// <summary>
/// The load without MSBuild, when only the contents of <c>.cs</c> files changed since the cached full scan: the
/// projects rebuilt from <see cref="CachedProjectFacts"/> in a Roslyn workspace of their own, the sources read from the
/// disk again, the source generators run again from the same analyzer assemblies where their input changed (the
/// others' generated sources reused, <see cref="GeneratedSources"/>: an edit inside bodies reaches no other
/// project's). What MSBuild would compute is what it computed last time: no project, props, targets, restore output,
/// reference or listing changed (ScanCache's rule).
/// </summary>
internal static class WarmLoad
{
    // Roslyn's workspace services, composed by MEF: about 0.2 s in a fresh process, started on another core while the
    // cache is read (Prepare) and awaited by the load. Unused when the cache is reused whole or refused.
    private static readonly Lazy<Task<HostServices>> Host = new(() => Task.Run(() => (HostServices)MefHostServices.DefaultHost));

    /// <summary>Starts composing the workspace services a rebuild needs, on another core.</summary>
    public static void Prepare() => _ = Host.Value;

    /// <summary>
    /// The code rebuilt after <paramref name="edited"/> changed, with the facts to record for it (the generated
    /// sources as this load has them), or null with the reason when the rebuild is not the one MSBuild's load gave (an
    /// analyzer that does not load, fewer source generators than MSBuild found).
    /// </summary>
    public static async Task<(WarmLoaded? Loaded, string? Refused)> LoadAsync(ScanInput input, IReadOnlyList<CachedProjectFacts> facts, IReadOnlyList<string> leftOutTests,
        IReadOnlyCollection<string> edited, CancellationToken cancellationToken)
    {
        var workspace = new AdhocWorkspace(await Host.Value.ConfigureAwait(false));
        try
        {
            var ids = facts.Select(f => ProjectId.CreateNewId(f.Name)).ToList();
            // The projects compiling an edited source run their generators; those that reference them only when what
            // they declare changed (GeneratedSources' rule), known from the start when it was not recorded.
            var compiling = GeneratedSources.Compiling(facts, edited);
            var rerun = GeneratedSources.Rerun(facts, compiling, compiling.Where(i => !facts[i].DeclarationsRecorded));
            var loader = new GeneratorLoader();
            var failures = new List<string>();
            AnalyzerFileReference Analyzer(string path)
            {
                var reference = new AnalyzerFileReference(path, loader);
                reference.AnalyzerLoadFailed += (_, e) =>
                {
                    lock (failures)
                    {
                        failures.Add($"{Path.GetFileName(path)}: {e.Message}");
                    }
                };
                return reference;
            }
            // One reference per assembly, as MSBuildWorkspace's metadata service keeps them: the file read once and its
            // symbols built once for every project that references it (aliases and interop embedding are the project's).
            var assemblies = new Dictionary<string, PortableExecutableReference>(StringComparer.Ordinal);
            MetadataReference Reference(CachedReference r)
            {
                if (!assemblies.TryGetValue(r.Path, out var shared))
                {
                    shared = assemblies[r.Path] = MetadataReference.CreateFromFile(r.Path);
                }
                return shared.WithProperties(new MetadataReferenceProperties(MetadataImageKind.Assembly, [.. r.Aliases], r.EmbedInteropTypes));
            }
            // A project whose generator input is unchanged (GeneratedSources' rule) gets its last load's generated sources
            // back as documents after its own, where the workspace puts generated trees, and no generator runs for it. One
            // compiling an edited source gets back those of the generators that read declarations only
            // (DeclarationOnlyGenerators), and runs the others, as long as its edits are inside bodies (checked below).
            var kept = compiling.Where(i => facts[i].DeclarationsRecorded).ToHashSet();
            var reused = facts.Select((f, i) => kept.Contains(i) ? f.Generated!.Where(DeclarationOnlyGenerators.Made).Select(g => GeneratedSources.Document(ids[i], g)).ToList()
                : rerun.Contains(i) ? [] : f.Generated!.Select(g => GeneratedSources.Document(ids[i], g)).ToList()).ToList();
            var infos = facts.Select((f, i) => ProjectInfo.Create(ids[i], VersionStamp.Default, f.Name, f.AssemblyName, LanguageNames.CSharp, f.Path,
                    outputFilePath: f.OutputPath, outputRefFilePath: f.OutputRefPath, compilationOptions: f.Compile.ToOptions(), parseOptions: f.Parse.ToOptions(),
                    documents: f.Documents.Select(d => Document(ids[i], d, f.Checksum)).Concat(reused[i]),
                    projectReferences: f.ProjectReferences.Select(r => new ProjectReference(ids[r.Project], [.. r.Aliases], r.EmbedInteropTypes)),
                    // A path listed twice is one reference, as the compiler binds it (the workspace refuses the same instance twice).
                    metadataReferences: f.References.Select(Reference).Distinct(),
                    analyzerReferences: kept.Contains(i) ? f.Analyzers.Select(a => DeclarationOnlyGenerators.Without(Analyzer(a)))
                        : rerun.Contains(i) ? f.Analyzers.Select(Analyzer) : [],
                    additionalDocuments: f.AdditionalFiles.Select(d => Document(ids[i], d, f.Checksum)))
                .WithAnalyzerConfigDocuments(f.AnalyzerConfigs.Select(d => Document(ids[i], d, f.Checksum)))
                .WithCompilationOutputInfo(default(CompilationOutputInfo).WithAssemblyPath(f.AssemblyPath)));
            var solution = workspace.AddSolution(SolutionInfo.Create(SolutionId.CreateNewId(), VersionStamp.Default, input.Solution, infos));
            Solution RunAll(Solution from, int i)
            {
                kept.Remove(i);
                return from.RemoveDocuments([.. reused[i].Select(d => d.Id)]).WithProjectAnalyzerReferences(ids[i], facts[i].Analyzers.Select(Analyzer));
            }
            // An edited source that now declares something else: every generator of its project runs.
            foreach (var i in kept.ToList())
            {
                if (!await BodiesOnlyAsync(solution.GetProject(ids[i])!, facts[i], edited, cancellationToken).ConfigureAwait(false))
                {
                    solution = RunAll(solution, i);
                }
            }
            var parallel = new ParallelOptions { CancellationToken = cancellationToken, MaxDegreeOfParallelism = Environment.ProcessorCount };
            // The edited projects first: what they declare now (their sources' surfaces, their generators' sources) decides
            // whether the projects that reference them run their generators too (a fork of the solution for those).
            var edits = new ConcurrentDictionary<int, (IReadOnlyList<string>? Surfaces, IReadOnlyList<CachedGenerated>? Generated)>();
            var first = solution;
            await Parallel.ForEachAsync(compiling, parallel, async (i, ct) =>
            {
                var compilation = await first.GetProject(ids[i])!.GetCompilationAsync(ct).ConfigureAwait(false);
                edits[i] = compilation is null ? default : (CachedProjectFacts.SurfacesOf(compilation, facts[i].Documents), GeneratedSources.Of(compilation, facts[i].Documents));
            }).ConfigureAwait(false);
            var declaring = compiling.Where(i => GeneratedSources.Declares(facts[i], edits[i].Surfaces, edits[i].Generated)).ToList();
            foreach (var i in GeneratedSources.Rerun(facts, compiling, declaring).Except(rerun).Order().ToList())
            {
                solution = RunAll(solution, i);
                rerun.Add(i);
            }
            // An edited project that kept sources but references another that declares something else now: its generators see that.
            var late = kept.Where(i => GeneratedSources.Rerun(facts, [], declaring.Where(j => j != i)).Contains(i)).ToList();
            foreach (var i in late)
            {
                solution = RunAll(solution, i);
            }
            var analysed = facts.Select((f, i) => (f, i)).Where(x => x.f.Analysed).Select(x => solution.GetProject(ids[x.i])!).ToList();
            var compiled = new Compilation?[analysed.Count];
            await Parallel.ForEachAsync(Enumerable.Range(0, analysed.Count), parallel, async (i, ct) =>
                compiled[i] = await analysed[i].GetCompilationAsync(ct).ConfigureAwait(false)).ConfigureAwait(false);
            var lost = rerun.Select(i => (f: facts[i], Now: CachedProjectFacts.GeneratorsOf(solution.GetProject(ids[i])!))).FirstOrDefault(x => x.Now != x.f.Generators);
            var refused = failures.Count > 0 ? $"an analyzer did not load ({failures[0]})"
                : lost.f is not null ? $"{lost.f.Name} has {lost.Now} source generator(s), {lost.f.Generators} when MSBuild loaded it"
                : compiled.Any(c => c is null) ? "Roslyn built no compilation for a project"
                : null;
            if (refused is not null)
            {
                workspace.Dispose();
                return (null, refused);
            }
            var projects = analysed.Select((p, i) => new LoadedProject(p, compiled[i]!, [])).ToList();
            // What to record: the generated sources as this load has them (run again, or the same as before), and the
            // edited sources' surfaces.
            IReadOnlyList<CachedGenerated>? GeneratedNow(int i) => solution.GetProject(ids[i])!.TryGetCompilation(out var c) ? GeneratedSources.Of(c, facts[i].Documents) : null;
            var recorded = facts.Select((f, i) => edits.TryGetValue(i, out var edit) ? f with { Generated = late.Contains(i) ? GeneratedNow(i) : edit.Generated, Surfaces = edit.Surfaces }
                : !rerun.Contains(i) ? f
                : f with { Generated = GeneratedNow(i) }).ToList();
            var bodiesOnly = declaring.Count == 0 && compiling.All(i => facts[i].DeclarationsRecorded);
            return (new WarmLoaded(new LoadedCode(workspace, input, projects, [], [.. leftOutTests]), recorded, rerun.Count, kept.Count) { BodiesOnly = bodiesOnly }, null);
        }
        catch
        {
            workspace.Dispose();
            throw;
        }
    }

    // Whether every edited source of the project declares what it declared at the last load (its recorded surface).
    private static async Task<bool> BodiesOnlyAsync(Project project, CachedProjectFacts facts, IReadOnlyCollection<string> edited, CancellationToken cancellationToken)
    {
        for (var d = 0; d < facts.Documents.Count; d++)
        {
            if (!edited.Contains(facts.Documents[d], StringComparer.Ordinal))
            {
                continue;
            }
            var document = project.Documents.FirstOrDefault(x => string.Equals(x.FilePath, facts.Documents[d], StringComparison.Ordinal));
            var tree = document is null ? null : await document.GetSyntaxTreeAsync(cancellationToken).ConfigureAwait(false);
            if (tree is null || DeclarationSurface.Of(tree) != facts.Surfaces![d])
            {
                return false;
            }
        }
        return true;
    }

    // A file as MSBuild's project read it: with its checksum algorithm when recorded (the Razor generator writes each
    // page's checksum into its source; the workspace's own default is another algorithm).
    private static DocumentInfo Document(ProjectId project, string path, SourceHashAlgorithm? checksum)
    {
        TextLoader loader = new FileTextLoader(path, defaultEncoding: null);
        return DocumentInfo.Create(DocumentId.CreateNewId(project, path), Path.GetFileName(path), filePath: path,
            loader: checksum is { } algorithm ? new ChecksumLoader(loader, algorithm) : loader);
    }

    private sealed class ChecksumLoader(TextLoader inner, SourceHashAlgorithm algorithm) : TextLoader
    {
        public override Task<TextAndVersion> LoadTextAndVersionAsync(LoadTextOptions options, CancellationToken cancellationToken) =>
            inner.LoadTextAndVersionAsync(new LoadTextOptions(algorithm), cancellationToken);
    }
}

/// <summary>
/// A rebuild's code, the facts to record for it, in how many projects the source generators ran again, and in how many
/// of those (edited inside bodies only) the generators that read declarations only kept their sources.
/// </summary>
internal sealed record WarmLoaded(LoadedCode Code, IReadOnlyList<CachedProjectFacts> Facts, int GeneratorsRun, int DeclarationOnlyKept)
{
    /// <summary>Every edit was inside bodies: the edited sources declare what they did, and so do the generated sources of their projects.</summary>
    public bool BodiesOnly { get; init; }
}
