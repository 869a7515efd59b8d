using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;
using Tplab.Scan.Loading;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Loading;

/// <summary>A project whose calls did not all resolve is read in part, counted and named, even when it restored without an error.</summary>
[ParallelSafe]
public sealed class PartialReadsTests
{
    [Fact]
    public void WithUnknownCalls_RestoredProjectWithUnresolvedCalls_IsReadInPartWithTheCount()
    {
        using var workspace = new AdhocWorkspace();
        var (api, apiTree) = Project(workspace, "Api", "class A { void M() { Missing.Call(); Missing.Other(); } }");
        var (data, _) = Project(workspace, "Data", "class B { }");
        var (web, webTree) = Project(workspace, "Web", "class C { void M() { Gone.Call(); } }");
        var projects = new[] { api, data, web };
        // Web was already read in part (not restored): its line gets the count too.
        var earlier = new[] { new SkippedProject("Web", "not restored") };
        var unknown = new[] { apiTree.FilePath, apiTree.FilePath, webTree.FilePath };

        var inPart = PartialReads.WithUnknownCalls(earlier, projects, unknown);

        Assert.Equal(["Web: not restored; 1 unresolved call(s) on the paths followed", "Api: 2 unresolved call(s) on the paths followed (a reference that did not resolve)"],
            inPart.Select(p => p.ToString()));
    }

    [Fact]
    public void WithUnknownCalls_RestoredProjectWithoutAPackage_NamesWhatDidNotResolve()
    {
        // The ORM's package was removed (not served by the feed) but the project restored: its repository's calls do not
        // resolve, and the line says what is missing, not only how many calls.
        using var workspace = new AdhocWorkspace();
        var (api, tree) = Project(workspace, "Api", """
            public class OrderRepository
            {
                private readonly ISession _session;
                public OrderRepository(ISession session) => _session = session;
                public void Save(object order) { _session.SaveOrUpdate(order); _session.Flush(); }
            }
            """);
        var unknown = new[] { tree.FilePath, tree.FilePath };

        var line = Assert.Single(PartialReads.WithUnknownCalls([], [api], unknown));

        Assert.Equal("Api: ISession unresolved; 2 unresolved call(s) on the paths followed (a reference that did not resolve)", line.ToString());
        Assert.Equal(["unresolved: ISession"], line.Details);
    }

    private static (LoadedProject Project, SyntaxTree Tree) Project(AdhocWorkspace workspace, string name, string code)
    {
        var id = ProjectId.CreateNewId();
        var solution = workspace.CurrentSolution
            .AddProject(ProjectInfo.Create(id, VersionStamp.Default, name, name, LanguageNames.CSharp, filePath: $"/src/{name}/{name}.csproj"))
            .AddDocument(DocumentId.CreateNewId(id), "Code.cs", SourceText.From(code), filePath: $"/src/{name}/Code.cs");
        workspace.TryApplyChanges(solution);
        var project = workspace.CurrentSolution.GetProject(id)!;
        var compilation = project.GetCompilationAsync().GetAwaiter().GetResult()!;
        return (new LoadedProject(project, compilation, []), compilation.SyntaxTrees.Single());
    }
}
