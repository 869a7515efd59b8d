using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using Tplab.Common;
using Tplab.Scan;
using Tplab.Scan.Loading;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan;

/// <summary>
/// <c>-o</c> (and <c>--plan</c>, <c>--write-baseline</c>) is refused when it is any file the load read, wherever it lies
/// and under any name: a source of a project the solution lists from a sibling folder, a source included by absolute
/// path, the project file, the <c>Directory.Build.props</c> above it, a props file it imports, the config read; through
/// a symbolic link or <c>..</c> too. Each refusal is one line, exit 2, and the file is left as it was.
/// </summary>
[ParallelSafe]
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class ScanInputsTests : IDisposable
{
    private readonly string _root = Directory.CreateTempSubdirectory("tplab-inputs-").FullName;
    private readonly AdhocWorkspace _workspace = new();

    public static TheoryData<string, string> Targets => new()
    {
        // the output named, relative to the temporary root | what the error says it is
        { "proj/Program.cs", "a source of the project Api" },
        { "sln/../proj/./Program.cs", "a source of the project Api" },
        { "link-to-proj/Program.cs", "a source of the project Api" },
        { "elsewhere/Linked.cs", "a source of the project Api" },
        { "proj/Api.csproj", "the project read (Api.csproj)" },
        { "Directory.Build.props", "a file MSBuild imports for Api" },
        { "shared/Common.props", "a file MSBuild imports for Api" },
        { "sln/S.slnx", "the solution read" },
        { "sln/tplab-scan.json", "the config read" },
    };

    [Theory]
    [MemberData(nameof(Targets))]
    public void CheckOutputs_AnInputTheLoadRead_RefusedInOneLineFileUnchanged(string output, string what)
    {
        using var code = Load();
        var path = Path.Combine(_root, output);
        var before = File.ReadAllBytes(path);
        var e = Assert.Throws<TplabException>(() => ScanInputs.CheckOutputs([("--output", path)], code, [("the config read", Path.Combine(_root, "sln", "tplab-scan.json"))]));
        Assert.Equal(ExitCodes.Usage, e.ExitCode);
        Assert.Contains(what, e.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', e.Message);
        Assert.Equal(before, File.ReadAllBytes(path));
    }

    [Fact]
    public void CheckOutputs_AFileNoInput_Accepted()
    {
        using var code = Load();
        ScanInputs.CheckOutputs([("--output", Path.Combine(_root, "sln", "scan.json")), ("--plan", null)], code, []);
    }

    public void Dispose()
    {
        _workspace.Dispose();
        Directory.Delete(_root, recursive: true);
    }

    // sln/S.slnx lists proj/Api.csproj (a sibling folder); the project includes elsewhere/Linked.cs by absolute path and
    // imports shared/Common.props; Directory.Build.props sits above both. link-to-proj is a symbolic link to proj.
    private LoadedCode Load()
    {
        foreach (var (name, text) in new[]
        {
            ("sln/S.slnx", "<Solution><Project Path=\"../proj/Api.csproj\" /></Solution>"),
            ("sln/tplab-scan.json", "{}"),
            ("proj/Program.cs", "class P {}"),
            ("proj/Api.csproj", $"<Project Sdk=\"Microsoft.NET.Sdk\"><Import Project=\"../shared/Common.props\" /><ItemGroup><Compile Include=\"{_root}/elsewhere/Linked.cs\" /></ItemGroup></Project>"),
            ("elsewhere/Linked.cs", "class L {}"),
            ("shared/Common.props", "<Project />"),
            ("Directory.Build.props", "<Project />"),
        })
        {
            var path = Path.Combine(_root, name);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            File.WriteAllText(path, text);
        }
        if (!Directory.Exists(Path.Combine(_root, "link-to-proj")))
        {
            Directory.CreateSymbolicLink(Path.Combine(_root, "link-to-proj"), Path.Combine(_root, "proj"));
        }
        var id = ProjectId.CreateNewId();
        var solution = _workspace.CurrentSolution
            .AddProject(ProjectInfo.Create(id, VersionStamp.Default, "Api", "Api", LanguageNames.CSharp, filePath: Path.Combine(_root, "proj", "Api.csproj")))
            .AddDocument(DocumentId.CreateNewId(id), "Program.cs", SourceText.From("class P {}"), filePath: Path.Combine(_root, "proj", "Program.cs"))
            .AddDocument(DocumentId.CreateNewId(id), "Linked.cs", SourceText.From("class L {}"), filePath: Path.Combine(_root, "elsewhere", "Linked.cs"));
        var project = solution.GetProject(id)!;
        return new LoadedCode(null, new ScanInput(Path.Combine(_root, "sln"), Path.Combine(_root, "sln", "S.slnx"), [project.FilePath!]),
            [new LoadedProject(project, project.GetCompilationAsync().GetAwaiter().GetResult()!, [])], [], []);
    }
}
