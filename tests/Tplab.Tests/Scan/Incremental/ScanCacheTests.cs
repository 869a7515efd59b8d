using System.Text.Json;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Tplab.Blocking;
using Tplab.Common;
using Tplab.Common.Json;
using Tplab.Scan;
using Tplab.Scan.Config;
using Tplab.Scan.Findings;
using Tplab.Scan.Graph;
using Tplab.Scan.Incremental;
using Tplab.Scan.Loading;
using Tplab.Scan.Roots;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Incremental;

/// <summary>
/// The cache is reused only when every input it recorded is as it was, and written by the same build with the same
/// options; anything else, a damaged or hostile file included, is a full scan said in one line, never a wrong answer
/// and never an exception. No MSBuild here: the cache is written as a full scan writes it, from a result.
/// </summary>
[ParallelSafe]
public sealed class ScanCacheTests : IDisposable
{
    private readonly string _root = RealPath.Of(Directory.CreateTempSubdirectory("tplab-cache-").FullName);
    private readonly List<string> _lines = [];

    public ScanCacheTests()
    {
        File.WriteAllText(Path.Combine(_root, "app.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk.Web\" />\n");
        File.WriteAllText(Path.Combine(_root, "Program.cs"), "Thread.Sleep(100);\n");
    }

    public void Dispose() => Directory.Delete(_root, recursive: true);

    private ScanOptions Options => new() { Path = _root, Cache = true };

    private ScanInput Input => new(_root, null, [Path.Combine(_root, "app.csproj")]);

    private string Config => Path.Combine(_root, ScanConfig.DefaultFileName);

    private ScanCache Cache(ScanOptions? options = null) => new(options ?? Options, Input, Config);

    private string CacheFile => Cache().File;

    /// <summary>Writes the cache of a one-finding result over the two files (and the absent config), then applies <paramref name="change"/> to it.</summary>
    private void WriteCache(Func<ScanCacheFile, ScanCacheFile>? change = null, byte[]? key = null)
    {
        var entry = new EntryPoint(new CodeNode("Program", "Main", "Program.Main", "Program.cs", 1, isLambda: false), CodePlace.MinimalApi, new HttpEndpoint("GET", "/"));
        var finding = new Finding("tp-0123456789", new BlockingCall(BlockingKind.Sleep, "Thread.Sleep", new StackFrame("System.Threading.Thread", "System.Threading.Thread", "Sleep")),
            Severity.Error, entry, [new ChainHop("Program.Main", "Program.Main", "Program.cs", 1, 8, null)], CallContext.RequestPath | CallContext.AsyncMethod, [], "use Task.Delay")
        {
            Roots = [new SiteRoot(entry, Severity.Error, 0)],
            ChainFiles = ["Program.cs"],
        };
        var result = new ScanResult(Input, [finding], [], ["app"], [], [], 1, 1, TimeSpan.FromSeconds(20), TimeSpan.FromSeconds(2));
        var inputs = new[] { "app.csproj", "Program.cs", ScanConfig.DefaultFileName }.Select(f => CacheInputs.Of(Path.Combine(_root, f))).ToList();
        var file = new ScanCacheFile(ScanCacheFile.Version, ScanCache.Tool, Cache().Options, inputs, [CacheInputs.ListingOf(_root)], null, CachedResult.From(result));
        file = change?.Invoke(file) ?? file;
        Directory.CreateDirectory(Path.GetDirectoryName(CacheFile)!);
        ScanCache.Write(CacheFile, file, key ?? CacheSeal.Key().Key!);
    }

    private ScanResult? Reuse(ScanOptions? options = null) => Cache(options).TryReuse([], new Lines(_lines)).Result;

    [Fact]
    public void TryReuse_NothingChanged_GivesTheCachedResultInOneLine()
    {
        WriteCache();

        var result = Reuse();

        Assert.NotNull(result);
        var finding = Assert.Single(result.Findings);
        Assert.Equal(("tp-0123456789", "GET /", "Program.Main", 1), (finding.Id, finding.Root.Key, finding.Root.Node.DisplayName, finding.Root.Node.Line));
        Assert.Equal(CallContext.RequestPath | CallContext.AsyncMethod, finding.Context);
        Assert.Equal(["Program.cs"], finding.ChainFiles);
        Assert.Contains("reused the cached scan", Assert.Single(_lines), StringComparison.Ordinal);
    }

    [Fact]
    public void TryReuse_PartialByUnresolvedCalls_IsReusedSayingItsProjectsReadInPart()
    {
        WriteCache(f => f with { Result = f.Result with { ReadInPart = [new CachedProject("app", "2 unresolved call(s) on the paths followed (a reference that did not resolve)", [])] } });

        var result = Reuse();

        Assert.NotNull(result);
        Assert.True(result.Partial);
        Assert.Equal("app", Assert.Single(result.ReadInPart).Name);
        Assert.Contains(_lines, l => l.StartsWith("tplab scan: read in part app: 2 unresolved call(s)", StringComparison.Ordinal));
    }

    [Fact]
    public void TryReuse_NoCacheYet_IsAFullScanWithoutALine()
    {
        Assert.Null(Reuse());
        Assert.Empty(_lines);
    }

    [Fact]
    public void TryReuse_FileTouchedButTheSame_IsReused()
    {
        WriteCache();
        File.SetLastWriteTimeUtc(Path.Combine(_root, "Program.cs"), DateTime.UtcNow.AddMinutes(5));

        Assert.NotNull(Reuse());
    }

    public static TheoryData<string, string> Changes => new()
    {
        // a source edited, also when its size and time were kept (the hash tells)
        { "edit", "Program.cs changed since the cached scan" },
        { "same-size-edit", "Program.cs changed since the cached scan" },
        { "delete", "Program.cs was deleted since the cached scan" },
        { "add", "1 file(s) added under the scanned folder since the cached scan" },
        { "config", "tplab-scan.json appeared since the cached scan" },
        { "project", "app.csproj changed since the cached scan" },
    };

    [Theory]
    [MemberData(nameof(Changes))]
    public void TryReuse_AnInputChanged_IsAFullScanNamingIt(string change, string line)
    {
        WriteCache();
        var program = Path.Combine(_root, "Program.cs");
        switch (change)
        {
            case "edit": File.AppendAllText(program, "Thread.Sleep(5);\n"); break;
            case "same-size-edit":
                var time = File.GetLastWriteTimeUtc(program);
                File.WriteAllText(program, "Thread.Sleep(900);\n");
                File.SetLastWriteTimeUtc(program, time);
                break;
            case "delete": File.Delete(program); break;
            case "add": File.WriteAllText(Path.Combine(_root, "Extra.cs"), "class Extra { }\n"); break;
            case "config": File.WriteAllText(Config, "{}"); break;
            case "project": File.WriteAllText(Path.Combine(_root, "app.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\" />\n"); break;
        }

        Assert.Null(Reuse());

        Assert.Contains("tplab scan: full scan: " + line, Assert.Single(_lines), StringComparison.Ordinal);
    }

    // The project as MSBuild gave it: Program.cs its one source.
    private CachedProjectFacts Facts => new(Path.Combine(_root, "app.csproj"), "app", "app", null, null, null, Analysed: true,
        CachedParse.Of(new CSharpParseOptions()), CachedCompile.Of(new CSharpCompilationOptions(OutputKind.ConsoleApplication)),
        [Path.Combine(_root, "Program.cs")], [], [], [], [], [], Generators: 0);

    [Fact]
    public void TryReuse_OnlyASourcesContentsChanged_RebuildsWithoutMSBuild()
    {
        WriteCache(f => f with { Projects = [Facts] });
        File.AppendAllText(Path.Combine(_root, "Program.cs"), "Thread.Sleep(5);\n");

        var (result, warm) = Cache().TryReuse([], new Lines(_lines));

        Assert.Null(result);
        Assert.NotNull(warm);
        Assert.Equal(Path.Combine(_root, "app.csproj"), Assert.Single(warm.Facts).Path);
        Assert.Contains("1 source file(s) changed since the cached scan (Program.cs): projects rebuilt from the cache without MSBuild", Assert.Single(_lines), StringComparison.Ordinal);
    }

    public static TheoryData<string, string> NotSourcesAlone => new()
    {
        { "project-too", "app.csproj changed since the cached scan (and 1 other change(s))" },
        { "added", "1 file(s) added under the scanned folder since the cached scan (and 1 other change(s))" },
        { "not-compiled", "Program.cs changed since the cached scan" },
    };

    [Theory]
    [MemberData(nameof(NotSourcesAlone))]
    public void TryReuse_ASourceAndMore_IsAFullScanNamingWhatMSBuildReads(string change, string line)
    {
        WriteCache(f => f with { Projects = [change == "not-compiled" ? Facts with { Documents = [] } : Facts] });
        File.AppendAllText(Path.Combine(_root, "Program.cs"), "Thread.Sleep(5);\n");
        switch (change)
        {
            case "project-too": File.WriteAllText(Path.Combine(_root, "app.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\" />\n"); break;
            case "added": File.WriteAllText(Path.Combine(_root, "Extra.cs"), "class Extra { }\n"); break;
        }

        var (result, warm) = Cache().TryReuse([], new Lines(_lines));

        Assert.Null(result);
        Assert.Null(warm);
        Assert.Contains("tplab scan: full scan: " + line, Assert.Single(_lines), StringComparison.Ordinal);
    }

    [Fact]
    public void TryReuse_OtherOptions_IsAFullScan()
    {
        WriteCache();

        Assert.Null(Reuse(Options with { MaxDepth = 10 }));

        Assert.Contains("another path or other options", Assert.Single(_lines), StringComparison.Ordinal);
    }

    public static TheoryData<string, string> Damaged => new()
    {
        { "truncated", "the cache is not a sealed cache file" },
        { "forged", "not written by this user's tplab (its seal does not match)" },
        { "unsealed", "the cache is not a sealed cache file" },
        { "seal-damaged", "the cache's seal is damaged" },
        { "two-caches", "the cache is not a sealed cache file" },
        { "not-json", "the cache is not a sealed cache file" },
        { "empty", "the cache is not a sealed cache file" },
        { "folder", "the cache does not read" },
        { "other-build", "another build of tplab" },
        { "other-format", "another format version" },
        { "root-out-of-range", "the cache is damaged (a finding is incomplete)" },
        { "empty-chain", "the cache is damaged (a finding is incomplete)" },
        { "unknown-place", "the cache is damaged (an entry point is incomplete)" },
        { "relative-input", "the cache is damaged (an input without its path or hash)" },
        { "listing-elsewhere", "the cache is damaged (a folder listed that is not a project's)" },
        { "facts-reference-out-of-range", "the cache is damaged (a project's facts are incomplete)" },
        { "facts-relative-source", "the cache is damaged (a project's facts are incomplete)" },
        { "facts-unknown-option", "the cache is damaged (a project's facts are incomplete)" },
        // A generated source reused as a document: a relative path or no text is not one a scan records.
        { "facts-generated-relative", "the cache is damaged (a project's facts are incomplete)" },
        { "facts-generated-no-text", "the cache is damaged (a project's facts are incomplete)" },
        // A source's declaration surface is a SHA-256, one per source; the checksum algorithm one Roslyn knows.
        { "facts-surfaces-miscounted", "the cache is damaged (a project's facts are incomplete)" },
        { "facts-surface-not-a-hash", "the cache is damaged (a project's facts are incomplete)" },
        { "facts-unknown-checksum", "the cache is damaged (a project's facts are incomplete)" },
        { "fifo-input", "fifo was deleted since the cached scan" },
        // The walks an incremental scan reuses: every index in range, one walk per entry point, one site per finding.
        { "walks-key-out-of-range", "the cache is damaged (a walk is incomplete)" },
        { "walks-miscounted", "the cache is damaged (a walk is incomplete)" },
        { "walks-hit-without-way", "the cache is damaged (a walk is incomplete)" },
        { "walks-finding-sites-miscounted", "the cache is damaged (a finding's site is missing)" },
        { "walks-entry-roots-miscounted", "the cache is damaged (an entry point is missing)" },
        { "walks-view-root-out-of-range", "the cache is damaged (a chain is incomplete)" },
        { "walks-factory-out-of-range", "the cache is damaged (a factory is missing)" },
        { "walks-root-unknown-place", "the cache is damaged (an entry point is incomplete)" },
        { "walks-root-negative-rank", "the cache is damaged (an entry point is incomplete)" },
    };

    // The walks of the one-finding cache: its one entry point's walk reaching the site.
    private static CachedWalks Walks => new(["GET /"], "00", ["Web|Program.cs|0|10", "Web|Program.cs|4|5|Sleep|Thread.Sleep", "file:/app/Program.cs"],
        [new CachedWalk([0], false, [new CachedHit(1, Severity.Error, 0, 0, false, true, [0])], [], [2])], [], [1], [0], [],
        new CachedRoots([new CachedRoot("Web|Program.cs|0|10", CodePlace.MinimalApi, new HttpEndpoint("GET", "/"), [], null, null, null, null, null)], [], [], []));

    [Fact]
    public void TryReuse_WithWalks_NothingChanged_GivesTheCachedResult()
    {
        WriteCache(f => f with { Walks = Walks });

        Assert.NotNull(Reuse());
    }

    [Fact]
    public void ScanCacheReader_SeedWithWalks_IsUsable()
    {
        // bench/fuzz's seed with walks and ranks: read whole, so that the fuzzer's mutations reach the walks' reader.
        Assert.Null(ScanCacheReader.CheckPayload(CopyOf(Path.Combine(RepoPaths.Root, "bench", "fuzz", "seeds", "scan-cache", "shop-ranks.json"))));
    }

    private string CopyOf(string file)
    {
        var copy = Path.Combine(_root, Path.GetFileName(file));
        File.Copy(file, copy);
        return copy;
    }

    [Theory]
    [MemberData(nameof(Damaged))]
    public void TryReuse_DamagedOrHostileCache_IsAFullScanInOneLine(string damage, string line)
    {
        switch (damage)
        {
            case "truncated":
                WriteCache();
                File.WriteAllBytes(CacheFile, File.ReadAllBytes(CacheFile)[..(int)(new FileInfo(CacheFile).Length / 2)]);
                break;
            case "forged": WriteCache(key: new byte[32]); break;
            case "unsealed":
                WriteCache();
                File.WriteAllText(CacheFile, JsonDocument.Parse(File.ReadAllBytes(CacheFile)).RootElement.GetProperty("cache").GetRawText());
                break;
            case "seal-damaged": WriteCache(); File.WriteAllText(CacheFile, File.ReadAllText(CacheFile).Replace("{\"seal\":\"", "{\"seal\":\"zz", StringComparison.Ordinal)); break;
            case "two-caches":
                WriteCache();
                File.WriteAllText(CacheFile, File.ReadAllText(CacheFile).TrimEnd()[..^1] + ",\"cache\":{}}");
                break;
            case "not-json": WriteCache(); File.WriteAllText(CacheFile, "not json"); break;
            case "empty": WriteCache(); File.WriteAllText(CacheFile, ""); break;
            case "folder": Directory.CreateDirectory(CacheFile); break;
            case "other-build": WriteCache(f => f with { Tool = "tplab/0.0.1" }); break;
            case "other-format": WriteCache(f => f with { SchemaVersion = 99 }); break;
            case "root-out-of-range": WriteCache(f => f with { Result = f.Result with { Findings = [f.Result.Findings[0] with { Root = 7 }] } }); break;
            case "empty-chain": WriteCache(f => f with { Result = f.Result with { Findings = [f.Result.Findings[0] with { Chain = [] }] } }); break;
            case "unknown-place": WriteCache(f => f with { Result = f.Result with { EntryPoints = [f.Result.EntryPoints[0] with { Place = (CodePlace)999 }] } }); break;
            case "relative-input": WriteCache(f => f with { Inputs = [f.Inputs[0] with { Path = "Program.cs" }] }); break;
            case "listing-elsewhere": WriteCache(f => f with { Listings = [new CachedListing("/", 0, "")] }); break;
            case "facts-reference-out-of-range": WriteCache(f => f with { Projects = [Facts with { ProjectReferences = [new CachedProjectReference(3, [], false)] }] }); break;
            case "facts-relative-source": WriteCache(f => f with { Projects = [Facts with { Documents = ["Program.cs"] }] }); break;
            case "facts-generated-relative": WriteCache(f => f with { Projects = [Facts with { Generated = [new CachedGenerated("Gen/Hello.g.cs", "class Hello { }")] }] }); break;
            case "facts-generated-no-text": WriteCache(f => f with { Projects = [Facts with { Generated = [new CachedGenerated(Path.Combine(_root, "Hello.g.cs"), null!)] }] }); break;
            case "facts-surfaces-miscounted": WriteCache(f => f with { Projects = [Facts with { Surfaces = [.. Facts.Documents.Select(_ => new string('a', 64)), new string('a', 64)] }] }); break;
            case "facts-surface-not-a-hash": WriteCache(f => f with { Projects = [Facts with { Surfaces = [.. Facts.Documents.Select(_ => "ab")] }] }); break;
            case "facts-unknown-checksum": WriteCache(f => f with { Projects = [Facts with { Checksum = (Microsoft.CodeAnalysis.Text.SourceHashAlgorithm)9 }] }); break;
            case "facts-unknown-option": WriteCache(f => f with { Projects = [Facts with { Compile = Facts.Compile with { OutputKind = (OutputKind)99 } }] }); break;
            case "walks-key-out-of-range": WriteCache(f => f with { Walks = Walks with { Walks = [Walks.Walks[0] with { Order = [9] }] } }); break;
            case "walks-miscounted": WriteCache(f => f with { Walks = Walks with { Walks = [] } }); break;
            case "walks-hit-without-way": WriteCache(f => f with { Walks = Walks with { Walks = [Walks.Walks[0] with { Hits = [Walks.Walks[0].Hits[0] with { Way = [] }] }] } }); break;
            case "walks-finding-sites-miscounted": WriteCache(f => f with { Walks = Walks with { FindingSites = [1, 1] } }); break;
            case "walks-entry-roots-miscounted": WriteCache(f => f with { Walks = Walks with { EntryRoots = [] } }); break;
            case "walks-view-root-out-of-range":
                WriteCache(f => f with { Walks = Walks with { Views = [new CachedView(3, 1, Severity.Error, f.Result.Findings[0].Chain, CallContext.None, [], "advice", null, null, false)] } });
                break;
            case "walks-factory-out-of-range": WriteCache(f => f with { Walks = Walks with { RootSet = Walks.RootSet! with { Factories = [new CachedFactories("IFoo", [4])] } } }); break;
            case "walks-root-unknown-place":
                WriteCache(f => f with { Walks = Walks with { RootSet = Walks.RootSet! with { Roots = [Walks.RootSet!.Roots[0] with { Place = (CodePlace)999 }] } } });
                break;
            case "walks-root-negative-rank":
                WriteCache(f => f with { Walks = Walks with { RootSet = Walks.RootSet! with { Roots = [Walks.RootSet!.Roots[0] with { Rank = -1 }] } } });
                break;
            case "fifo-input":
                var fifo = Path.Combine(_root, "fifo");
                Fifo.Make(fifo);
                WriteCache(f => f with { Inputs = [.. f.Inputs, new CachedInput(fifo, 10, 0, "00")] });
                break;
        }

        Assert.Null(Reuse());

        var only = Assert.Single(_lines);
        Assert.StartsWith("tplab scan: full scan: ", only, StringComparison.Ordinal);
        Assert.Contains(line, only, StringComparison.Ordinal);
    }

    private sealed class Lines(List<string> lines) : IScanProgress
    {
        public void Line(string text) => lines.Add(text);

        public void Status(string text)
        {
        }
    }
}
