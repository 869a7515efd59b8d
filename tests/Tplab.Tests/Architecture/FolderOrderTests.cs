using Tplab.Tests.Support;

namespace Tplab.Tests.Architecture;

/// <summary>
/// The folders point one way: every file's references (its <c>using</c> lines and the names it qualifies) are held
/// against the order ARCHITECTURE.md states, and every folder with code is in that document.
/// </summary>
[ParallelSafe]
public sealed class FolderOrderTests
{
    public static TheoryData<string, string> Projects => new()
    {
        { "Tplab.Core", "Tplab" },
        { "Tplab.Scan", "Tplab.Scan" },
        { "Tplab.Analyzers", "Tplab.Analyzers" },
    };

    [Theory]
    [MemberData(nameof(Projects))]
    public void EveryReference_PointsUpTheStatedOrder(string project, string rootNamespace)
    {
        var map = Map(project, rootNamespace);
        var files = SourceReferences.Files(Path.Combine(RepoPaths.Root, "src", project));
        var declared = SourceReferences.Declared(files);
        var folders = Directory.EnumerateDirectories(Path.Combine(RepoPaths.Root, "src", project)).Select(Path.GetFileName).ToHashSet(StringComparer.Ordinal);

        // A global using (in any file, one with no namespace included, or a project's <Using> item) is used by every file.
        var source = Path.Combine(RepoPaths.Root, "src", project);
        var globals = SourceReferences.GlobalUsings(
            Directory.EnumerateFiles(source, "*.cs", SearchOption.AllDirectories).Where(p => !p.Contains("/obj/", StringComparison.Ordinal) && !p.Contains("/bin/", StringComparison.Ordinal)),
            [.. Directory.EnumerateFiles(source, "*.*proj"), .. Directory.EnumerateFiles(source, "*.props"), Path.Combine(RepoPaths.Root, "Directory.Build.props")]);

        var against = new List<string>();
        foreach (var file in files)
        {
            var refs = SourceReferences.Of(file, rootNamespace, declared);
            if (Place(refs.Namespace, rootNamespace) is not { } from)
            {
                continue;
            }
            foreach (var used in refs.Namespaces)
            {
                if (Place(used, rootNamespace) is { } to && folders.Contains(to.Folder) && !map.Allows(from, to))
                {
                    against.Add($"{Path.GetRelativePath(RepoPaths.Root, file.Path)}: {Name(from)} uses {Name(to)}");
                }
            }
            foreach (var (used, where) in globals)
            {
                if (Place(used, rootNamespace) is { } to && folders.Contains(to.Folder) && !map.Allows(from, to))
                {
                    against.Add($"{Path.GetRelativePath(RepoPaths.Root, where)}: global using {used} makes {Name(from)} use {Name(to)}");
                }
            }
        }
        Assert.True(against.Count == 0, $"{against.Count} references against ARCHITECTURE.md's order:\n" + string.Join('\n', against.Distinct().Order(StringComparer.Ordinal)));
    }

    [Theory]
    [MemberData(nameof(Projects))]
    public void EveryFolderWithCode_IsInArchitectureMd(string project, string rootNamespace)
    {
        var map = Map(project, rootNamespace);
        var source = Path.Combine(RepoPaths.Root, "src", project);
        var missing = new List<string>();
        foreach (var dir in Directory.EnumerateDirectories(source).Where(HasCode))
        {
            var folder = Path.GetFileName(dir);
            if (!map.Folders.Contains(folder))
            {
                missing.Add(folder + "/");
                continue;
            }
            foreach (var sub in Directory.EnumerateDirectories(dir).Where(HasCode).Select(Path.GetFileName))
            {
                if (!map.SubfoldersOf(folder).Contains(sub!))
                {
                    missing.Add($"{folder}/{sub}/");
                }
            }
        }
        Assert.True(missing.Count == 0, $"ARCHITECTURE.md's table for src/{project} misses: {string.Join(", ", missing)}");
    }

    /// <summary>
    /// Scan's folders with stages of their own are read like Core's: fix's stages in the order its row names them (so the
    /// order test above holds each stage to the ones before it), and every stage named is a folder with code.
    /// </summary>
    [Fact]
    public void ScanFix_StagesAreStatedInTheirOrder()
    {
        var map = Map("Tplab.Scan", "Tplab.Scan");
        var fix = Path.Combine(RepoPaths.Root, "src", "Tplab.Scan", "Fix");

        Assert.Equal(["Selecting", "Editing", "Checks", "Propagation", "Rewrites", "Applying", "Output"], map.SubfoldersOf("Fix"));
        Assert.All(map.SubfoldersOf("Fix"), sub => Assert.True(HasCode(Path.Combine(fix, sub)), $"Fix/{sub}/ is named in ARCHITECTURE.md but has no code"));
        Assert.False(map.Allows(("Fix", "Checks"), ("Fix", "Rewrites")));
        Assert.True(map.Allows(("Fix", "Rewrites"), ("Fix", "Propagation")));
    }

    [Fact]
    public void FolderMap_ReadsRowsAndSubfoldersInOrder()
    {
        var map = FolderMap.Read("""
            ## src/Tplab.Core, folder by folder
            | folder | what |
            |---|---|
            | `Common/` | errors, `Json/` then `Output/` |
            | `Watch/` | `Verdicts/`, `Output/` |
            ## next
            | `Lab/` | not this table |
            """, "Tplab.Core", "Tplab");

        Assert.Equal(["Common", "Watch"], map.Folders);
        Assert.Equal(["Verdicts", "Output"], map.SubfoldersOf("Watch"));
        Assert.True(map.Allows(("Watch", "Output"), ("Common", "Json")));
        Assert.False(map.Allows(("Common", null), ("Watch", null)));
        Assert.True(map.Allows(("Watch", "Output"), ("Watch", "Verdicts")));
        Assert.False(map.Allows(("Watch", "Verdicts"), ("Watch", "Output")));
        Assert.True(map.Allows(("Watch", null), ("Watch", "Output")));
        Assert.True(map.Allows(("Watch", "Verdicts"), ("Watch", null)));
        Assert.False(map.Allows(("Lab", null), ("Common", null)));
    }

    [Fact]
    public void SourceReferences_SeeUsingsQualifiedAndSiblingNames_NotCommentsOrStrings()
    {
        var files = new List<(string Path, string Namespace, string Code)>
        {
            ("a.cs", "Tplab.Scan.Rules", """
                using Tplab.Scan.Loading;
                using static Tplab.Scan.Findings.FindingId;
                namespace Tplab.Scan.Rules;
                // Tplab.Scan.Output.ScanTextFormat is only named in a comment
                class A { object x = Graph.Callers.None; object y = Tplab.Scan.Roots.RootFinder.Find(); string s = "Tplab.Scan.Plan.PlanBuilder"; }
                """),
            ("b.cs", "Tplab.Scan.Graph", "namespace Tplab.Scan.Graph; class Callers { }"),
            ("c.cs", "Tplab.Scan.Roots", "namespace Tplab.Scan.Roots; class RootFinder { }"),
            ("d.cs", "Tplab.Scan.Plan", "namespace Tplab.Scan.Plan; class PlanBuilder { }"),
            ("e.cs", "Tplab.Scan.Output", "namespace Tplab.Scan.Output; class ScanTextFormat { }"),
        };
        files = [.. files.Select(f => (f.Path, f.Namespace, SourceReferences.Code(f.Code)))];
        var declared = SourceReferences.Declared(files);

        var refs = SourceReferences.Of(files[0], "Tplab.Scan", declared);

        Assert.Contains("Tplab.Scan.Loading", refs.Namespaces);
        Assert.Contains("Tplab.Scan.Graph", refs.Namespaces);
        Assert.Contains("Tplab.Scan.Roots", refs.Namespaces);
        Assert.Contains(refs.Namespaces, n => n.StartsWith("Tplab.Scan.Findings", StringComparison.Ordinal));
        Assert.DoesNotContain("Tplab.Scan.Output", refs.Namespaces);
        Assert.DoesNotContain("Tplab.Scan.Plan", refs.Namespaces);
    }

    [Fact]
    public void SourceReferences_SeeNamesQualifiedTwoLevelsFromAnOuterNamespace()
    {
        var files = new List<(string Path, string Namespace, string Code)>
        {
            ("a.cs", "Tplab.Lab.Running", "namespace Tplab.Lab.Running; class A { object v = Watch.Verdicts.PoolVerdict.Starving; }"),
            ("b.cs", "Tplab.Watch.Verdicts", "namespace Tplab.Watch.Verdicts; enum PoolVerdict { Starving }"),
        };
        var declared = SourceReferences.Declared(files);

        Assert.Contains("Tplab.Watch.Verdicts", SourceReferences.Of(files[0], "Tplab", declared).Namespaces);
    }

    [Fact]
    public void GlobalUsings_FromAFileWithNoNamespaceAndFromUsingItems()
    {
        var folder = Directory.CreateTempSubdirectory("tplab-global-usings-").FullName;
        try
        {
            var usings = Path.Combine(folder, "GlobalUsings.cs");
            File.WriteAllText(usings, "global using Tplab.Diagnose;\n// global using Tplab.Lab;\n");
            var project = Path.Combine(folder, "P.csproj");
            File.WriteAllText(project, """<Project><ItemGroup><Using Include="Tplab.Watch.Verdicts" /><Using Include="System.Text" /></ItemGroup></Project>""");

            var globals = SourceReferences.GlobalUsings([usings], [project]).Select(g => g.Namespace).ToList();

            Assert.Equal(["Tplab.Diagnose", "Tplab.Watch.Verdicts", "System.Text"], globals);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    private static FolderMap Map(string project, string rootNamespace) =>
        FolderMap.Read(File.ReadAllText(Path.Combine(RepoPaths.Root, "ARCHITECTURE.md")), project, rootNamespace);

    private static bool HasCode(string dir) => Directory.EnumerateFiles(dir, "*.cs", SearchOption.AllDirectories)
        .Any(f => !f.Contains("/obj/", StringComparison.Ordinal) && !f.Contains("/bin/", StringComparison.Ordinal));

    /// <summary>Tplab.Watch.Verdicts → (Watch, Verdicts); Tplab.Watch → (Watch, null); outside the project's root → null.</summary>
    private static (string Folder, string? Sub)? Place(string ns, string rootNamespace)
    {
        if (!ns.StartsWith(rootNamespace + ".", StringComparison.Ordinal))
        {
            return null;
        }
        var parts = ns[(rootNamespace.Length + 1)..].Split('.');
        return (parts[0], parts.Length > 1 ? parts[1] : null);
    }

    private static string Name((string Folder, string? Sub) place) => place.Sub is null ? place.Folder + "/" : $"{place.Folder}/{place.Sub}/";
}
