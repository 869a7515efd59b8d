using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Host.Mef;
using Tplab.Scan.Loading;

namespace Tplab.Scan.Incremental;

/// <summary>
/// The load without MSBuild, when only the contents of <c>.cs</c> files changed since the cached full scan: the
/// projects rebuilt from <see cref="CachedProjectFacts"/> in a Roslyn workspace of their own, the sources read from the
/// disk again, the source generators run again from the same analyzer assemblies. What MSBuild would compute is what it
/// computed last time: no project, props, targets, restore output, reference or listing changed (ScanCache's rule).
/// </summary>
internal static class WarmLoad
{
    /// <summary>The code rebuilt, or null with the reason when the rebuild is not the one MSBuild's load gave (an analyzer that does not load).</summary>
    public static async Task<(LoadedCode? Code, string? Refused)> LoadAsync(ScanInput input, IReadOnlyList<CachedProjectFacts> facts, IReadOnlyList<string> leftOutTests, CancellationToken cancellationToken)
    {
        var workspace = new AdhocWorkspace(MefHostServices.DefaultHost);
        try
        {
            var ids = facts.Select(f => ProjectId.CreateNewId(f.Name)).ToList();
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
            var infos = facts.Select((f, i) => ProjectInfo.Create(ids[i], VersionStamp.Default, f.Name, f.AssemblyName, LanguageNames.CSharp, f.Path,
                    outputFilePath: f.OutputPath, outputRefFilePath: f.OutputRefPath, compilationOptions: f.Compile.ToOptions(), parseOptions: f.Parse.ToOptions(),
                    documents: f.Documents.Select(d => Document(ids[i], d)),
                    projectReferences: f.ProjectReferences.Select(r => new ProjectReference(ids[r.Project], [.. r.Aliases], r.EmbedInteropTypes)),
                    metadataReferences: f.References.Select(r => MetadataReference.CreateFromFile(r.Path, new MetadataReferenceProperties(aliases: [.. r.Aliases], embedInteropTypes: r.EmbedInteropTypes))),
                    analyzerReferences: f.Analyzers.Select(Analyzer),
                    additionalDocuments: f.AdditionalFiles.Select(d => Document(ids[i], d)))
                .WithAnalyzerConfigDocuments(f.AnalyzerConfigs.Select(d => Document(ids[i], d)))
                .WithCompilationOutputInfo(default(CompilationOutputInfo).WithAssemblyPath(f.AssemblyPath)));
            var solution = workspace.AddSolution(SolutionInfo.Create(SolutionId.CreateNewId(), VersionStamp.Default, input.Solution, infos));
            var analysed = facts.Select((f, i) => (f, i)).Where(x => x.f.Analysed).Select(x => solution.GetProject(ids[x.i])!).ToList();
            var compiled = new Compilation?[analysed.Count];
            var parallel = new ParallelOptions { CancellationToken = cancellationToken, MaxDegreeOfParallelism = Environment.ProcessorCount };
            await Parallel.ForEachAsync(Enumerable.Range(0, analysed.Count), parallel, async (i, ct) =>
                compiled[i] = await analysed[i].GetCompilationAsync(ct).ConfigureAwait(false)).ConfigureAwait(false);
            var lost = facts.Select((f, i) => (f, Now: CachedProjectFacts.GeneratorsOf(solution.GetProject(ids[i])!))).FirstOrDefault(x => x.Now != x.f.Generators);
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
            return (new LoadedCode(workspace, input, projects, [], [.. leftOutTests]), null);
        }
        catch
        {
            workspace.Dispose();
            throw;
        }
    }

    private static DocumentInfo Document(ProjectId project, string path) =>
        DocumentInfo.Create(DocumentId.CreateNewId(project, path), Path.GetFileName(path), loader: new FileTextLoader(path, defaultEncoding: null), filePath: path);
}
