extern alias analyzers;
extern alias codefixes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Testing;
using Microsoft.CodeAnalysis.Testing;
using analyzers::Tplab.Analyzers;
using codefixes::Tplab.Analyzers.CodeFixes;

namespace Tplab.Tests.Analyzers;

/// <summary>
/// The analyzer and its code fixes under Microsoft.CodeAnalysis.CodeFix.Testing, against the test host's runtime and
/// ASP.NET Core (as <see cref="AnalyzerTest"/>). A test whose fixed code is its source asserts that no fix is offered;
/// the fixed code is compiled and analysed again, so a fix that leaves an error or a TPL diagnostic fails.
/// </summary>
internal sealed class CodeFixTest : CSharpCodeFixTest<BlockingCallAnalyzer, BlockingCodeFixProvider, DefaultVerifier>
{
    /// <param name="source">The document with its diagnostics in markup.</param>
    /// <param name="fixedSource">The document after the fix (after Fix All); <paramref name="source"/> itself: no fix is offered.</param>
    /// <param name="program">Top-level statements (a minimal API's Program.cs), else a library of controllers.</param>
    public CodeFixTest(string source, string fixedSource, bool program = false)
    {
        ReferenceAssemblies = new ReferenceAssemblies("net10.0");
        TestState.AdditionalReferences.AddRange(AnalyzerTest.Framework.Value);
        TestState.Sources.Add(source);
        FixedState.Sources.Add(fixedSource);
        TestState.OutputKind = FixedState.OutputKind = program ? OutputKind.ConsoleApplication : OutputKind.DynamicallyLinkedLibrary;
    }

    /// <summary>Adds a second document, unchanged by the fix.</summary>
    public CodeFixTest With(string name, string source)
    {
        TestState.Sources.Add((name, source));
        FixedState.Sources.Add((name, source));
        return this;
    }
}
