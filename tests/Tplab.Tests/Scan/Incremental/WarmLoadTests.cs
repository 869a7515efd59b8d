using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Tplab.Common;
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

        var (code, refused) = await WarmLoad.LoadAsync(Input, [library with { Analysed = false }, web], ["Web.Tests"], CancellationToken.None);

        Assert.Null(refused);
        using (code)
        {
            var loaded = Assert.Single(code!.Projects);
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

        var (code, refused) = await WarmLoad.LoadAsync(Input, [facts], [], CancellationToken.None);

        Assert.Null(code);
        Assert.StartsWith("an analyzer did not load (NotAnAssembly.dll: ", refused, StringComparison.Ordinal);
    }

    [Fact]
    public async Task LoadAsync_FewerSourceGeneratorsThanMSBuildLoaded_IsRefused()
    {
        var facts = Project("Web", [File("Program.cs", "class P { }\n")]) with { Generators = 2 };

        var (code, refused) = await WarmLoad.LoadAsync(Input, [facts], [], CancellationToken.None);

        Assert.Null(code);
        Assert.Equal("Web has 0 source generator(s), 2 when MSBuild loaded it", refused);
    }
}
