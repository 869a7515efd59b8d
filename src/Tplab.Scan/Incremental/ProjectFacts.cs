using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;
using Tplab.Scan.Loading;

namespace Tplab.Scan.Incremental;

/// <summary>
/// What MSBuild's design-time build told Roslyn about one C# project, kept in the scan cache so that a change to the
/// contents of <c>.cs</c> files alone rebuilds the compilations without MSBuild (<see cref="WarmLoad"/>; docs/scan.md
/// "What invalidates the cache"): its sources, additional files and editorconfigs in order, parse options and
/// preprocessor symbols, the compilation options that change binding, metadata references by path (their SHA-256 are
/// cache inputs), references to other projects by index, the analyzer assemblies whose source generators run, the
/// sources those generators added at the load (null: not recorded; reused by <see cref="GeneratedSources"/>'s rule),
/// each source's <see cref="DeclarationSurface"/> (null: not recorded; an edit there runs its dependents' generators),
/// and the checksum algorithm its sources were read with (the Razor generator writes each page's checksum).
/// </summary>
internal sealed record CachedProjectFacts(
    string Path, string Name, string AssemblyName, string? OutputPath, string? OutputRefPath, string? AssemblyPath, bool Analysed, CachedParse Parse, CachedCompile Compile,
    IReadOnlyList<string> Documents, IReadOnlyList<string> AdditionalFiles, IReadOnlyList<string> AnalyzerConfigs,
    IReadOnlyList<CachedReference> References, IReadOnlyList<CachedProjectReference> ProjectReferences, IReadOnlyList<string> Analyzers, int Generators,
    IReadOnlyList<CachedGenerated>? Generated = null, IReadOnlyList<string>? Surfaces = null, SourceHashAlgorithm? Checksum = null)
{
    /// <summary>
    /// Every C# project of the loaded solution (those analysed, and those they reference), or null with the reason when
    /// one cannot be rebuilt from facts (a reference to a project in another language, a source without a path).
    /// </summary>
    public static (IReadOnlyList<CachedProjectFacts>? Facts, string? Why) Of(LoadedCode code)
    {
        ArgumentNullException.ThrowIfNull(code);
        if (code.Projects.Count == 0)
        {
            return (null, "no project was loaded");
        }
        var solution = code.Projects[0].Project.Solution;
        var analysed = code.Projects.Select(p => p.Project.Id).ToHashSet();
        var all = solution.Projects.ToList();
        if (all.FirstOrDefault(p => p.Language != LanguageNames.CSharp || p.FilePath is null || p.ParseOptions is not CSharpParseOptions || p.CompilationOptions is not CSharpCompilationOptions) is { } other)
        {
            return (null, $"the project {other.Name} is not a C# project with a file");
        }
        // Source generators' files are named under this folder: one MSBuild chose (EmitCompilerGeneratedFiles) is not rebuilt.
        if (all.FirstOrDefault(p => p.CompilationOutputInfo.GeneratedFilesOutputDirectory is not null) is { } emitting)
        {
            return (null, $"the project {emitting.Name} writes its generated files to a folder of its own");
        }
        var index = all.Select((p, i) => (p.Id, i)).ToDictionary(x => x.Id, x => x.i);
        var compiled = code.Projects.ToDictionary(p => p.Project.Id, p => p.Compilation);
        var facts = new List<CachedProjectFacts>();
        foreach (var project in all)
        {
            var documents = project.Documents.Select(d => d.FilePath).ToList();
            var additional = project.AdditionalDocuments.Select(d => d.FilePath).ToList();
            var configs = project.AnalyzerConfigDocuments.Select(d => d.FilePath).ToList();
            var references = project.MetadataReferences.Select(r => r as PortableExecutableReference).ToList();
            var analyzers = project.AnalyzerReferences.Select(a => a.FullPath).ToList();
            if (documents.Concat(additional).Concat(configs).Concat(analyzers).Any(p => p is null || !System.IO.Path.IsPathFullyQualified(p))
                || references.Any(r => r?.FilePath is null || !System.IO.Path.IsPathFullyQualified(r.FilePath)))
            {
                return (null, $"a source, reference or analyzer of {project.Name} has no path");
            }
            // The compilation scan analysed, else the one the workspace built for a project's dependents; none built: not recorded.
            var compilation = compiled.GetValueOrDefault(project.Id) ?? (project.TryGetCompilation(out var built) ? built : null);
            facts.Add(new CachedProjectFacts(project.FilePath!, project.Name, project.AssemblyName, project.OutputFilePath, project.OutputRefFilePath,
                project.CompilationOutputInfo.AssemblyPath, analysed.Contains(project.Id),
                CachedParse.Of((CSharpParseOptions)project.ParseOptions!), CachedCompile.Of((CSharpCompilationOptions)project.CompilationOptions!),
                documents!, additional!, configs!,
                [.. references.Select(r => new CachedReference(r!.FilePath!, r.Properties.Aliases, r.Properties.EmbedInteropTypes))],
                [.. project.ProjectReferences.Select(r => new CachedProjectReference(index[r.ProjectId], r.Aliases, r.EmbedInteropTypes))],
                analyzers!, GeneratorsOf(project),
                compilation is null ? null : GeneratedSources.Of(compilation, documents), SurfacesOf(compilation, documents), ChecksumOf(project)));
        }
        return (facts, null);
    }

    /// <summary>The <see cref="DeclarationSurface"/> of each of <paramref name="documents"/> as <paramref name="compilation"/> parsed it; null when it holds not all of them.</summary>
    public static IReadOnlyList<string>? SurfacesOf(Compilation? compilation, IReadOnlyList<string?> documents)
    {
        ArgumentNullException.ThrowIfNull(documents);
        if (compilation is null)
        {
            return null;
        }
        var trees = new Dictionary<string, SyntaxTree>(StringComparer.Ordinal);
        foreach (var tree in compilation.SyntaxTrees)
        {
            trees.TryAdd(tree.FilePath, tree);
        }
        var surfaces = new string[documents.Count];
        for (var i = 0; i < documents.Count; i++)
        {
            if (documents[i] is not { } path || !trees.TryGetValue(path, out var tree))
            {
                return null;
            }
            surfaces[i] = DeclarationSurface.Of(tree);
        }
        return surfaces;
    }

    // The algorithm MSBuild's project gave its texts, as its first source or additional file read has it.
    private static SourceHashAlgorithm? ChecksumOf(Project project) =>
        project.Documents.Concat(project.AdditionalDocuments).Select(d => d.TryGetText(out var text) ? text.ChecksumAlgorithm : (SourceHashAlgorithm?)null).FirstOrDefault(a => a is not null);

    /// <summary>Whether what the project declared at its load is recorded (its sources' surfaces and its generated sources): else an edit to it runs its dependents' generators.</summary>
    public bool DeclarationsRecorded => Surfaces is not null && Generated is not null;

    /// <summary>How many C# source generators the project's analyzer assemblies hold: a warm load that finds fewer is refused.</summary>
    public static int GeneratorsOf(Project project) => project.AnalyzerReferences.Sum(DeclarationOnlyGenerators.AllGenerators);

    /// <summary>The files whose contents the rebuilt compilations depend on beyond the project's own (metadata references, analyzer assemblies).</summary>
    public static IEnumerable<string> Assemblies(IEnumerable<CachedProjectFacts> facts) =>
        facts.SelectMany(f => f.References.Select(r => r.Path).Concat(f.Analyzers)).Distinct(StringComparer.Ordinal);

    /// <summary>Null when every index and name is one a scan writes, else what is wrong.</summary>
    public static string? Invalid(IReadOnlyList<CachedProjectFacts>? facts)
    {
        static bool Paths(IReadOnlyList<string>? list) => list is not null && list.All(p => p is not null && System.IO.Path.IsPathFullyQualified(p));
        bool Valid(CachedProjectFacts? f) => f is not null && f.Path is not null && System.IO.Path.IsPathFullyQualified(f.Path) && f.Name is not null && f.AssemblyName is not null
            && f.Parse is not null && f.Parse.Invalid() is null && f.Compile is not null && f.Compile.Invalid() is null
            && f.Generators >= 0 && GeneratedSources.Invalid(f.Generated) is null
            && (f.Checksum is null || Enum.IsDefined(f.Checksum.Value)) && (f.Surfaces is null || (f.Documents is not null && f.Surfaces.Count == f.Documents.Count && f.Surfaces.All(s => s is { Length: 64 })))
            && Paths(f.Documents) && Paths(f.AdditionalFiles) && Paths(f.AnalyzerConfigs) && Paths(f.Analyzers)
            && f.References is not null && f.References.All(r => r is not null && r.Path is not null && System.IO.Path.IsPathFullyQualified(r.Path) && r.Aliases is not null && r.Aliases.All(a => a is not null))
            && f.ProjectReferences is not null && f.ProjectReferences.All(r => r is not null && r.Project >= 0 && r.Project < facts!.Count && r.Aliases is not null && r.Aliases.All(a => a is not null));
        return facts is null || facts.Count == 0 || !facts.All(Valid) ? "a project's facts are incomplete" : null;
    }
}

/// <summary>A project's C# parse options as MSBuild set them.</summary>
internal sealed record CachedParse(LanguageVersion LanguageVersion, IReadOnlyList<string> Symbols, DocumentationMode DocumentationMode, IReadOnlyDictionary<string, string> Features)
{
    public static CachedParse Of(CSharpParseOptions options) =>
        new(options.SpecifiedLanguageVersion, [.. options.PreprocessorSymbolNames], options.DocumentationMode, options.Features.ToDictionary(f => f.Key, f => f.Value, StringComparer.Ordinal));

    public CSharpParseOptions ToOptions() =>
        new CSharpParseOptions(LanguageVersion, DocumentationMode, SourceCodeKind.Regular, Symbols).WithFeatures(Features);

    public string? Invalid() => Enum.IsDefined(LanguageVersion) && Enum.IsDefined(DocumentationMode) && Symbols is not null && Symbols.All(s => s is not null)
        && Features is not null && Features.All(f => f.Key is not null && f.Value is not null) ? null : "parse options";
}

/// <summary>A project's C# compilation options that change what binds to what (or which diagnostics a compilation reports).</summary>
internal sealed record CachedCompile(
    OutputKind OutputKind, string? ModuleName, string? MainTypeName, NullableContextOptions Nullable, bool AllowUnsafe, bool CheckOverflow,
    OptimizationLevel Optimization, Platform Platform, ReportDiagnostic GeneralDiagnostic, int WarningLevel,
    IReadOnlyDictionary<string, ReportDiagnostic> Specific, string? CryptoKeyFile, string? CryptoKeyContainer, bool? DelaySign, bool PublicSign,
    string CryptoPublicKey, MetadataImportOptions MetadataImport)
{
    public static CachedCompile Of(CSharpCompilationOptions o) => new(o.OutputKind, o.ModuleName, o.MainTypeName, o.NullableContextOptions, o.AllowUnsafe,
        o.CheckOverflow, o.OptimizationLevel, o.Platform, o.GeneralDiagnosticOption, o.WarningLevel,
        o.SpecificDiagnosticOptions.ToDictionary(d => d.Key, d => d.Value, StringComparer.Ordinal), o.CryptoKeyFile, o.CryptoKeyContainer, o.DelaySign, o.PublicSign,
        Convert.ToBase64String([.. o.CryptoPublicKey]), o.MetadataImportOptions);

    public CSharpCompilationOptions ToOptions() => new CSharpCompilationOptions(OutputKind, reportSuppressedDiagnostics: false, ModuleName, MainTypeName,
            scriptClassName: null, usings: null, Optimization, CheckOverflow, AllowUnsafe, CryptoKeyContainer, CryptoKeyFile,
            [.. Convert.FromBase64String(CryptoPublicKey)], DelaySign, Platform, GeneralDiagnostic, WarningLevel, Specific, concurrentBuild: true,
            deterministic: true, publicSign: PublicSign, nullableContextOptions: Nullable)
        .WithMetadataImportOptions(MetadataImport);

    public string? Invalid() => Enum.IsDefined(OutputKind) && Enum.IsDefined(Nullable) && Enum.IsDefined(Optimization) && Enum.IsDefined(Platform)
        && Enum.IsDefined(GeneralDiagnostic) && Enum.IsDefined(MetadataImport) && WarningLevel >= 0 && Specific is not null
        && Specific.All(s => s.Key is not null && Enum.IsDefined(s.Value)) && CryptoPublicKey is not null && IsBase64(CryptoPublicKey) ? null : "compilation options";

    private static bool IsBase64(string text) => Convert.TryFromBase64String(text, new byte[text.Length], out _);
}

/// <summary>A metadata reference: the assembly's path, its aliases (<c>extern alias</c>) and whether interop types are embedded.</summary>
internal sealed record CachedReference(string Path, IReadOnlyList<string> Aliases, bool EmbedInteropTypes);

/// <summary>A reference to another project of the cache, by its index in the list.</summary>
internal sealed record CachedProjectReference(int Project, IReadOnlyList<string> Aliases, bool EmbedInteropTypes);
