using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Tplab.Common;
using Tplab.Launch;
using Tplab.Scan.Incremental;
using Tplab.Scan.Loading;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Incremental;

/// <summary>
/// The rebuild without MSBuild from a cache's project facts: the sources read from the disk again under the recorded
/// preprocessor symbols, a referenced project's types bound across, and refused (a full scan) when an analyzer does
/// not load or holds fewer source generators than when MSBuild loaded the project. Real Roslyn compilations; no MSBuild.
/// </summary>
[ParallelSafe]
public sealed class WarmLoadTests : IDisposable
{
    private readonly string _root = RealPath.Of(Directory.CreateTempSubdirectory("tplab-warm-").FullName);

    public void Dispose() => Directory.Delete(_root, recursive: true);

    private string File(string name, string text)
    {
        var path = Path.Combine(_root, name);
        System.IO.File.WriteAllText(path, text);
        return path;
    }

    private static readonly string[] Runtime = [.. ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator)
        .Where(p => Path.GetFileName(p) is "System.Runtime.dll" or "System.Private.CoreLib.dll" or "System.Threading.Thread.dll" or "System.Threading.dll")];

    private CachedProjectFacts Project(string name, IReadOnlyList<string> sources, params string[] symbols) =>
        new(Path.Combine(_root, name + ".csproj"), name, name, null, null, null, Analysed: true,
            CachedParse.Of(new CSharpParseOptions(LanguageVersion.Latest, preprocessorSymbols: symbols)),
            CachedCompile.Of(new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary)),
            sources, [], [], [.. Runtime.Select(r => new CachedReference(r, [], false))], [], [], Generators: 0);

    private ScanInput Input => new(_root, null, [Path.Combine(_root, "Web.csproj")]);

    [Fact]
    public async Task LoadAsync_Facts_CompilesTheSourcesAsTheyAreNowUnderTheRecordedSymbols()
    {
        var library = Project("Lib", [File("Store.cs", "namespace Lib;\npublic static class Store\n{\n#if SLOW\n    public static void Load() => System.Threading.Thread.Sleep(1);\n#endif\n}\n")], "SLOW");
        var web = Project("Web", [File("Program.cs", "public static class Program { public static void Main() => Lib.Store.Load(); }\n")]) with
        {
            ProjectReferences = [new CachedProjectReference(0, [], false)],
        };

        var (rebuilt, refused) = await WarmLoad.LoadAsync(Input, [library with { Analysed = false }, web], ["Web.Tests"], [web.Documents[0]], CancellationToken.None);

        Assert.Null(refused);
        using (var code = rebuilt!.Code)
        {
            var loaded = Assert.Single(code.Projects);
            Assert.Equal("Web", loaded.Name);
            Assert.Equal(["Web.Tests"], code.LeftOutTests);
            Assert.Empty(loaded.Compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
            var tree = Assert.Single(loaded.Compilation.SyntaxTrees);
            Assert.Equal(Path.Combine(_root, "Program.cs"), tree.FilePath);
        }
    }

    [Fact]
    public async Task LoadAsync_AnalyzerThatDoesNotLoad_IsRefused()
    {
        var facts = Project("Web", [File("Program.cs", "class P { }\n")]) with { Analyzers = [File("NotAnAssembly.dll", "not an assembly")] };

        var (rebuilt, refused) = await WarmLoad.LoadAsync(Input, [facts], [], facts.Documents, CancellationToken.None);

        Assert.Null(rebuilt);
        Assert.StartsWith("an analyzer did not load (NotAnAssembly.dll: ", refused, StringComparison.Ordinal);
    }

    [Fact]
    public async Task LoadAsync_FewerSourceGeneratorsThanMSBuildLoaded_IsRefused()
    {
        var facts = Project("Web", [File("Program.cs", "class P { }\n")]) with { Generators = 2 };

        var (rebuilt, refused) = await WarmLoad.LoadAsync(Input, [facts], [], facts.Documents, CancellationToken.None);

        Assert.Null(rebuilt);
        Assert.Equal("Web has 0 source generator(s), 2 when MSBuild loaded it", refused);
    }

    // A generated source as the workspace names it: under the generator's assembly and type, beside the assembly.
    private string GeneratedPath(string project) => Path.Combine(_root, "obj", project, "Acme.Generators", "Acme.Generators.HelloGenerator", "Hello.g.cs");

    [Fact]
    public async Task LoadAsync_ProjectTheEditDoesNotReach_ReusesItsGeneratedSourcesWithoutLoadingItsGenerators()
    {
        // Lib's generator assembly would not even load: reused, it is never asked.
        var hello = new CachedGenerated(GeneratedPath("Lib"), "namespace Lib;\npublic static partial class Store { public static void Hello() { } }\n");
        var library = Project("Lib", [File("Store.cs", "namespace Lib;\npublic static partial class Store { }\n")]) with
        {
            Analyzers = [File("NotAnAssembly.dll", "not an assembly")], Generators = 1, Generated = [hello],
        };
        var web = Project("Web", [File("Program.cs", "public static class Program { public static void Main() => Lib.Store.Hello(); }\n")]) with
        {
            ProjectReferences = [new CachedProjectReference(0, [], false)], Generated = [],
        };

        var (rebuilt, refused) = await WarmLoad.LoadAsync(Input, [library, web], [], [web.Documents[0]], CancellationToken.None);

        Assert.Null(refused);
        using var code = rebuilt!.Code;
        Assert.Equal(1, rebuilt.GeneratorsRun);
        var lib = code.Projects.Single(p => p.Name == "Lib").Compilation;
        Assert.Equal([Path.Combine(_root, "Store.cs"), hello.Path], lib.SyntaxTrees.Select(t => t.FilePath));
        Assert.Empty(code.Projects.Single(p => p.Name == "Web").Compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
        // Recorded again as generated sources, never as the project's own.
        Assert.Equal([hello], rebuilt.Facts[0].Generated);
        Assert.Equal(library.Documents, rebuilt.Facts[0].Documents);
        Assert.Empty(rebuilt.Facts[1].Generated!);
    }

    [Fact]
    public async Task LoadAsync_EditInAReferencedProject_RunsItsDependentsGenerators()
    {
        var library = Project("Lib", [File("Store.cs", "namespace Lib;\npublic static class Store { }\n")]) with { Generated = [] };
        var web = Project("Web", [File("Program.cs", "class P { }\n")]) with
        {
            ProjectReferences = [new CachedProjectReference(0, [], false)], Analyzers = [File("NotAnAssembly.dll", "not an assembly")], Generated = [],
        };

        var (rebuilt, refused) = await WarmLoad.LoadAsync(Input, [library, web], [], [library.Documents[0]], CancellationToken.None);

        Assert.Null(rebuilt);
        Assert.StartsWith("an analyzer did not load (NotAnAssembly.dll: ", refused, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("inside a body", "{ System.Threading.Thread.Sleep(1); }", false)]
    [InlineData("a method added", "{ } public static void Load() { }", true)]
    public async Task LoadAsync_EditInAReferencedProject_RunsItsDependentsGeneratorsOnlyWhenWhatItDeclaresChanged(string edit, string body, bool declares)
    {
        const string Text = "namespace Lib;\npublic static class Store { public static void Save() { } }\n";
        var recorded = DeclarationSurface.Of(CSharpSyntaxTree.ParseText(Text));
        var library = Project("Lib", [File("Store.cs", Text.Replace("{ } }", body + " }", StringComparison.Ordinal))]) with { Generated = [], Surfaces = [recorded] };
        // Web's generator assembly would not even load: its generators run only when Lib's declarations changed.
        var web = Project("Web", [File("Program.cs", "public static class Program { public static void Main() => Lib.Store.Save(); }\n")]) with
        {
            ProjectReferences = [new CachedProjectReference(0, [], false)], Analyzers = [File("NotAnAssembly.dll", "not an assembly")], Generators = 1, Generated = [],
        };

        var (rebuilt, refused) = await WarmLoad.LoadAsync(Input, [library, web], [], [library.Documents[0]], CancellationToken.None);

        if (declares)
        {
            Assert.Null(rebuilt);
            Assert.StartsWith("an analyzer did not load (NotAnAssembly.dll: ", refused, StringComparison.Ordinal);
            return;
        }
        Assert.True(refused is null, $"{edit}: {refused}");
        using var code = rebuilt!.Code;
        Assert.Equal(1, rebuilt.GeneratorsRun);
        Assert.Equal([recorded], rebuilt.Facts[0].Surfaces);
        Assert.Empty(code.Projects.Single(p => p.Name == "Web").Compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
    }

    // The SDK's regular-expression generator, from the targeting pack the SDK compiles against (as MSBuild's load lists it).
    private static string? RegexGenerator() =>
        Directory.Exists(Path.Combine(Path.GetDirectoryName(DotnetHost.Path)!, "packs", "Microsoft.NETCore.App.Ref"))
            ? Directory.EnumerateFiles(Path.Combine(Path.GetDirectoryName(DotnetHost.Path)!, "packs", "Microsoft.NETCore.App.Ref"), "System.Text.RegularExpressions.Generator.dll", SearchOption.AllDirectories)
                .Where(p => p.Contains("/analyzers/dotnet/cs/", StringComparison.Ordinal)).Order(StringComparer.Ordinal).LastOrDefault()
            : null;

    [Theory]
    [InlineData("inside a body", "return Digits().IsMatch(s);", false)]
    [InlineData("a member added", "return Digits().IsMatch(s); } public static int Two() { return 2;", true)]
    public async Task LoadAsync_EditedProject_KeepsTheSourcesOfGeneratorsThatReadDeclarationsOnlyWhenItsEditsAreInsideBodies(string edit, string body, bool declares)
    {
        var generator = RegexGenerator();
        // The targeting pack comes with the SDK that built this suite.
        Assert.True(generator is not null, "no System.Text.RegularExpressions.Generator.dll in the SDK's Microsoft.NETCore.App.Ref pack");
        const string Text = "using System.Text.RegularExpressions;\npublic static partial class Codes\n{\n    [GeneratedRegex(\"^[0-9]+$\")]\n    private static partial Regex Digits();\n    public static bool Valid(string s) { return Digits().IsMatch(s); }\n}\n";
        var source = File("Codes.cs", Text);
        var references = ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator)
            .Where(p => Path.GetFileName(p) is "System.Runtime.dll" or "System.Private.CoreLib.dll" or "System.Text.RegularExpressions.dll" or "System.Memory.dll" or "System.Collections.dll");
        var facts = Project("Web", [source]) with
        {
            // Generated sources are named under the assembly's folder, as MSBuild's load gives it.
            AssemblyPath = Path.Combine(_root, "obj", "Web.dll"), Analyzers = [generator!], Generators = 1, References = [.. references.Select(r => new CachedReference(r, [], false))],
        };
        // The first rebuild records what the project declares and what its generator added (nothing was recorded: it runs).
        var (first, _) = await WarmLoad.LoadAsync(Input, [facts], [], [source], CancellationToken.None);
        var recorded = first!.Facts[0];
        first.Code.Dispose();
        var regex = Assert.Single(recorded.Generated!, g => g.Path.Contains("/System.Text.RegularExpressions.Generator/", StringComparison.Ordinal));
        Assert.True(DeclarationOnlyGenerators.Made(regex));

        System.IO.File.WriteAllText(source, Text.Replace("return Digits().IsMatch(s);", "bool ok = Digits().IsMatch(s); " + body, StringComparison.Ordinal));
        var (rebuilt, refused) = await WarmLoad.LoadAsync(Input, [recorded], [], [source], CancellationToken.None);

        Assert.True(refused is null, $"{edit}: {refused}");
        using var code = rebuilt!.Code;
        Assert.Equal(declares ? 0 : 1, rebuilt.DeclarationOnlyKept);
        var compilation = Assert.Single(code.Projects).Compilation;
        // Kept or run again, the same generated source, after the project's own, and recorded for the next rebuild.
        Assert.Equal([source, regex.Path], compilation.SyntaxTrees.Select(t => t.FilePath));
        Assert.Equal(regex.Text, compilation.SyntaxTrees.Last().ToString());
        Assert.Empty(compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
        Assert.Equal(recorded.Generated!.OrderBy(g => g.Path, StringComparer.Ordinal), rebuilt.Facts[0].Generated!.OrderBy(g => g.Path, StringComparer.Ordinal));
    }

    public static TheoryData<string, bool, int[]> Reruns => new()
    {
        // A <- B <- C (C references B, B references A), D alone: an edit that changes what its project declares reaches
        // its project and those above it; an edit inside bodies, its project alone.
        { "A", true, [0, 1, 2] },
        { "B", true, [1, 2] },
        { "C", true, [2] },
        { "D", true, [3] },
        { "A", false, [0] },
        { "B", false, [1] },
        // Nothing recorded for D: its generators run, and the projects that reference it need not.
        { "none", true, [3] },
    };

    [Theory]
    [MemberData(nameof(Reruns))]
    public void Rerun_AnEdit_IsItsProjectAndEveryProjectThatReferencesOneWhoseDeclarationsChanged(string edited, bool declares, int[] expected)
    {
        CachedProjectFacts Of(string name, params int[] references) => Project(name, [Path.Combine(_root, name + ".cs")]) with
        {
            ProjectReferences = [.. references.Select(r => new CachedProjectReference(r, [], false))], Generated = [],
        };
        IReadOnlyList<CachedProjectFacts> facts = [Of("A"), Of("B", 0), Of("C", 1), Of("D") with { Generated = edited == "none" ? null : [] }];
        var compiling = GeneratedSources.Compiling(facts, edited == "none" ? [] : [Path.Combine(_root, edited + ".cs")]);

        var rerun = GeneratedSources.Rerun(facts, compiling, declares ? compiling : []);

        Assert.Equal(expected, rerun.Order());
    }
}
