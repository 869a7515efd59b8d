using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace Tplab.Scan.Incremental;

/// <summary>
/// The .NET SDK's source generators whose output is a function of declarations (attributes on types and partial
/// members, the types a compilation declares), additional files and options, never of what a method's body says: an
/// edit inside bodies, which leaves every edited source's <see cref="DeclarationSurface"/> as it was, leaves their
/// sources as they were. A rebuilt project then takes those from the cache and runs only its other generators: those
/// that read call sites inside bodies (minimal API validation, the request delegate and configuration binding
/// generators intercept calls) and any this list does not name (a package's, the app's own). In a fresh process these
/// cost most of a rebuild: their incremental pipelines are JIT-compiled first (ShopApp: Razor 1.0 s, the COM interop
/// pair 0.9 s of a 4.0 s generator run in a cold compiler).
/// </summary>
internal static class DeclarationOnlyGenerators
{
    // (assembly, generator type): each reads attributes through ForAttributeWithMetadataName on partial members and
    // types, or (Razor) the .cshtml and .razor files with the tag helpers and components the compilation declares.
    private static readonly HashSet<(string Assembly, string Type)> Known =
    [
        ("Microsoft.CodeAnalysis.Razor.Compiler", "Microsoft.NET.Sdk.Razor.SourceGenerators.RazorSourceGenerator"),
        ("Microsoft.Interop.LibraryImportGenerator", "Microsoft.Interop.LibraryImportGenerator"),
        ("Microsoft.Interop.ComInterfaceGenerator", "Microsoft.Interop.ComInterfaceGenerator"),
        ("Microsoft.Interop.ComInterfaceGenerator", "Microsoft.Interop.ComClassGenerator"),
        ("Microsoft.Interop.ComInterfaceGenerator", "Microsoft.Interop.VtableIndexStubGenerator"),
        ("Microsoft.Interop.JavaScript.JSImportGenerator", "Microsoft.Interop.JavaScript.JSImportGenerator"),
        ("Microsoft.Interop.JavaScript.JSImportGenerator", "Microsoft.Interop.JavaScript.JSExportGenerator"),
        ("System.Text.RegularExpressions.Generator", "System.Text.RegularExpressions.Generator.RegexGenerator"),
        ("System.Text.Json.SourceGeneration", "System.Text.Json.SourceGeneration.JsonSourceGenerator"),
        ("Microsoft.Extensions.Logging.Generators", "Microsoft.Extensions.Logging.Generators.LoggerMessageGenerator"),
        ("Microsoft.Extensions.Options.SourceGeneration", "Microsoft.Extensions.Options.Generators.OptionsValidatorGenerator"),
    ];

    /// <summary>Whether <paramref name="source"/> was added by one of these generators (its path names the generator: …/ASSEMBLY/TYPE/HINT, Roslyn's layout).</summary>
    public static bool Made(CachedGenerated source)
    {
        ArgumentNullException.ThrowIfNull(source);
        var parts = source.Path.Split('/', '\\');
        for (var i = 0; i + 2 < parts.Length; i++)
        {
            if (Known.Contains((parts[i], parts[i + 1])))
            {
                return true;
            }
        }
        return false;
    }

    /// <summary><paramref name="reference"/> without these generators (its analyzers and other generators as they are).</summary>
    public static AnalyzerReference Without(AnalyzerReference reference) => new Others(reference);

    /// <summary>How many C# generators <paramref name="reference"/> holds, these counted.</summary>
    public static int AllGenerators(AnalyzerReference reference) =>
        (reference is Others others ? others.Inner : reference).GetGenerators(LanguageNames.CSharp).Length;

    private static bool IsKnown(ISourceGenerator generator)
    {
        var type = generator.GetGeneratorType();
        return type.FullName is { } name && Known.Contains((type.Assembly.GetName().Name ?? "", name));
    }

    private sealed class Others(AnalyzerReference inner) : AnalyzerReference
    {
        public AnalyzerReference Inner => inner;

        public override string? FullPath => inner.FullPath;

        public override string Display => inner.Display;

        // Not the inner reference's: the workspace keeps state per reference, and this one runs fewer generators.
        public override object Id { get; } = (inner.Id, nameof(DeclarationOnlyGenerators));

        public override ImmutableArray<DiagnosticAnalyzer> GetAnalyzersForAllLanguages() => inner.GetAnalyzersForAllLanguages();

        public override ImmutableArray<DiagnosticAnalyzer> GetAnalyzers(string language) => inner.GetAnalyzers(language);

        public override ImmutableArray<ISourceGenerator> GetGeneratorsForAllLanguages() => [.. inner.GetGeneratorsForAllLanguages().Where(g => !IsKnown(g))];

        public override ImmutableArray<ISourceGenerator> GetGenerators(string language) => [.. inner.GetGenerators(language).Where(g => !IsKnown(g))];
    }
}
