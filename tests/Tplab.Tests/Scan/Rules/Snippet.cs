using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;
using Tplab.Blocking;
using Tplab.Scan;
using Tplab.Scan.Config;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Loading;
using Tplab.Scan.Roots;
using Tplab.Scan.Rules;

namespace Tplab.Tests.Scan.Rules;

/// <summary>
/// Scans a snippet compiled in memory against the runtime's own assemblies, from <c>Root.Handle</c> taken as a
/// minimal API handler: the rules and the call graph on small cases, without MSBuild.
/// </summary>
internal static class Snippet
{
    private const string Usings = """
        using System;
        using System.Collections.Generic;
        using System.Data;
        using System.Data.Common;
        using System.IO;
        using System.Linq;
        using System.Net.Http;
        using System.Threading;
        using System.Threading.Tasks;

        """;

    private static MetadataReference Library(string code)
    {
        var compilation = CSharpCompilation.Create("Provider" + Guid.NewGuid().ToString("N"), [CSharpSyntaxTree.ParseText(Usings + code)], References.Value,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable));
        using var image = new MemoryStream();
        var emitted = compilation.Emit(image);
        Assert.True(emitted.Success, "the library does not compile: " + string.Join("; ", emitted.Diagnostics.Take(3)));
        return MetadataReference.CreateFromImage(image.ToArray());
    }

    // The runtime's assemblies, and DI's abstractions from the ASP.NET Core shared framework beside it (registrations are read by their real types).
    private static readonly Lazy<MetadataReference[]> References = new(() =>
        [.. ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator)
            .Where(p => Path.GetFileName(p).StartsWith("System.", StringComparison.Ordinal) || Path.GetFileName(p) is "mscorlib.dll" or "netstandard.dll")
            .Append(DependencyInjection())
            .Select(p => MetadataReference.CreateFromFile(p))]);

    private static string DependencyInjection()
    {
        var runtime = Path.GetDirectoryName(typeof(object).Assembly.Location)!;
        var path = Path.Combine(runtime, "..", "..", "Microsoft.AspNetCore.App", Path.GetFileName(runtime), "Microsoft.Extensions.DependencyInjection.Abstractions.dll");
        Assert.True(File.Exists(path), $"the ASP.NET Core shared framework this repository needs is missing ({path})");
        return path;
    }

    // The snippet as the one project of a workspace, compiled; a compile error fails the test with the first errors.
    private static (Project Project, Compilation Compilation) Compile(AdhocWorkspace workspace, string code, string? library)
    {
        var references = library is null ? References.Value : [.. References.Value, Library(library)];
        var projectId = ProjectId.CreateNewId();
        var solution = workspace.CurrentSolution
            .AddProject(ProjectInfo.Create(projectId, VersionStamp.Default, "Snippet", "Snippet", LanguageNames.CSharp,
                compilationOptions: new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable),
                metadataReferences: references))
            .AddDocument(DocumentId.CreateNewId(projectId), "Snippet.cs", SourceText.From(Usings + code), filePath: "/snippet/Snippet.cs");
        var project = solution.GetProject(projectId)!;
        var compilation = project.GetCompilationAsync().GetAwaiter().GetResult()!;
        var errors = compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList();
        Assert.True(errors.Count == 0, "the snippet does not compile: " + string.Join("; ", errors.Take(3)));
        return (project, compilation);
    }

    /// <summary>The entry points <see cref="RootFinder"/> finds in a snippet (no <c>Root.Handle</c> needed); <paramref name="library"/> as in <see cref="Findings"/>.</summary>
    public static RootSet Roots(string code, string? library = null)
    {
        using var workspace = new AdhocWorkspace();
        var (project, compilation) = Compile(workspace, code, library);
        using var loaded = new LoadedCode(null, new ScanInput("/snippet", null, []), [new LoadedProject(project, compilation, [])], [], []);
        return RootFinder.Find(Scanner.Index(loaded), CancellationToken.None);
    }

    /// <summary>The findings reached from <c>Root.Handle</c>; <paramref name="library"/> is compiled apart and referenced, as a package would be.</summary>
    public static IReadOnlyList<Finding> Findings(string code, ScanConfig? config = null, string? library = null)
    {
        using var workspace = new AdhocWorkspace();
        var (project, compilation) = Compile(workspace, code, library);

        using var code2 = new LoadedCode(null, new ScanInput("/snippet", null, []), [new LoadedProject(project, compilation, [])], [], []);
        var index = Scanner.Index(code2);
        var handle = compilation.GetTypeByMetadataName("Root")!.GetMembers("Handle").OfType<IMethodSymbol>().Single();
        var root = new EntryPoint(index.NodeFor(handle)!, CodePlace.MinimalApi, new HttpEndpoint("GET", "/snippet"));
        var graph = new CallGraph(index, new BlockingRules((config ?? new ScanConfig()).Entries(), new Callers(index)));
        var builder = new FindingBuilder(graph, new LockAnalysis(graph, 40, CancellationToken.None), new RootSet([root], new Dictionary<string, List<EntryPoint>>()), 40);
        return [.. builder.For(root)];
    }

    /// <summary>
    /// Every entry point <see cref="RootFinder"/> finds in a snippet, each with the findings its own walk reaches (the
    /// scan's path from a real root: its place, its concrete controller); <paramref name="library"/> as in <see cref="Findings"/>.
    /// </summary>
    public static IReadOnlyList<(EntryPoint Root, IReadOnlyList<Finding> Findings)> FindingsByRoot(string code, string? library = null) =>
        WithRoots(code, library, (roots, builder) => (IReadOnlyList<(EntryPoint, IReadOnlyList<Finding>)>)[.. roots.Roots.Select(r => (r, (IReadOnlyList<Finding>)[.. builder.For(r)]))]);

    /// <summary>
    /// The sites of a snippet as a scan reports them: every entry point <see cref="RootFinder"/> finds, walked together,
    /// one finding per site with all its entry points; <paramref name="library"/> as in <see cref="Findings"/>.
    /// </summary>
    public static IReadOnlyList<Finding> Sites(string code, string? library = null) =>
        WithRoots(code, library, (_, builder) => builder.Build(Tplab.Scan.SilentProgress.Instance, CancellationToken.None).Findings);

    // A snippet compiled and indexed as a scan does, its entry points found and a builder over them, for one question.
    private static T WithRoots<T>(string code, string? library, Func<RootSet, FindingBuilder, T> ask)
    {
        using var workspace = new AdhocWorkspace();
        var (project, compilation) = Compile(workspace, code, library);
        using var loaded = new LoadedCode(null, new ScanInput("/snippet", null, []), [new LoadedProject(project, compilation, [])], [], []);
        var index = Scanner.Index(loaded);
        var roots = RootFinder.Find(index, CancellationToken.None);
        var graph = new CallGraph(index, new BlockingRules(new ScanConfig().Entries(), new Callers(index)));
        return ask(roots, new FindingBuilder(graph, new LockAnalysis(graph, 40, CancellationToken.None), roots, 40));
    }

    /// <summary>
    /// The findings reached from <c>Root.Handle</c> of each of <paramref name="projects"/> (assembly names), every one
    /// compiled from the same <paramref name="code"/> in one solution: two projects that declare the same type.
    /// </summary>
    public static IReadOnlyList<Finding> FindingsOfProjects(string code, params string[] projects)
    {
        using var workspace = new AdhocWorkspace();
        var solution = workspace.CurrentSolution;
        var ids = new List<ProjectId>();
        foreach (var name in projects)
        {
            var projectId = ProjectId.CreateNewId();
            ids.Add(projectId);
            solution = solution
                .AddProject(ProjectInfo.Create(projectId, VersionStamp.Default, name, name, LanguageNames.CSharp,
                    compilationOptions: new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable),
                    metadataReferences: References.Value))
                .AddDocument(DocumentId.CreateNewId(projectId), "Snippet.cs", SourceText.From(Usings + code), filePath: $"/snippet/{name}/Snippet.cs");
        }
        var loadedProjects = ids.Select(id => solution.GetProject(id)!).Select(p => new LoadedProject(p, p.GetCompilationAsync().GetAwaiter().GetResult()!, [])).ToList();
        using var loaded = new LoadedCode(null, new ScanInput("/snippet", null, []), loadedProjects, [], []);
        var index = Scanner.Index(loaded);
        var roots = loadedProjects.Select(p => new EntryPoint(index.NodeFor(p.Compilation.GetTypeByMetadataName("Root")!.GetMembers("Handle").OfType<IMethodSymbol>().Single())!,
            CodePlace.MinimalApi, new HttpEndpoint("GET", "/" + p.Compilation.AssemblyName))).ToList();
        var graph = new CallGraph(index, new BlockingRules(new ScanConfig().Entries(), new Callers(index)));
        var builder = new FindingBuilder(graph, new LockAnalysis(graph, 40, CancellationToken.None), new RootSet(roots, new Dictionary<string, List<EntryPoint>>()), 40);
        return [.. roots.SelectMany(builder.For)];
    }
}
