using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Tplab.Analyzers.Summaries;

namespace Tplab.Analyzers;

/// <summary>
/// TPL0001–TPL0011: a blocking call reached from an ASP.NET Core entry point of the compilation, found by scan's own
/// roots, rules and catalogue. The compilation is analysed once (on the first tree asked for, cancellable, kept while
/// the compilation lives) and each tree's diagnostics are reported by its semantic-model action, so the editor shows
/// them on the open document without a build.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class BlockingCallAnalyzer : DiagnosticAnalyzer
{
    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = [.. DiagnosticIds.Descriptors, DiagnosticIds.UnreadableSummary];

    public override void Initialize(AnalysisContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            // The compilation-start action runs once per compilation: its closure is the per-compilation cache.
            var once = new Once(start.Compilation, start.Options);
            start.RegisterSemanticModelAction(model =>
            {
                foreach (var diagnostic in once.Get(model.CancellationToken).For(model.SemanticModel.SyntaxTree))
                {
                    model.ReportDiagnostic(diagnostic);
                }
            });
            // A referenced summary of another version: ignored, said once per assembly (never a finding from it).
            start.RegisterCompilationEndAction(end =>
            {
                foreach (var (assembly, key) in ReferencedSummaries.Of(end.Compilation, end.CancellationToken).Unreadable)
                {
                    end.ReportDiagnostic(Diagnostic.Create(DiagnosticIds.UnreadableSummary, Location.None, assembly, key));
                }
            });
        });
    }

    // One analysis per compilation; a cancelled one is run again by the next caller.
    private sealed class Once(Compilation compilation, AnalyzerOptions options)
    {
        private readonly object _gate = new();
        private CompilationAnalysis? _analysis;

        public CompilationAnalysis Get(CancellationToken cancellationToken)
        {
            lock (_gate)
            {
                return _analysis ??= CompilationAnalysis.Run(compilation, options, cancellationToken);
            }
        }
    }
}
