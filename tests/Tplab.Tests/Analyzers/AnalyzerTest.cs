extern alias analyzers;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Testing;
using Microsoft.CodeAnalysis.Testing;
using analyzers::Tplab.Analyzers;

namespace Tplab.Tests.Analyzers;

/// <summary>
/// The analyzer under Microsoft.CodeAnalysis.Testing, compiled against this machine's runtime and ASP.NET Core shared
/// frameworks (the test host's own; no reference package is downloaded).
/// </summary>
internal sealed class AnalyzerTest : CSharpAnalyzerTest<BlockingCallAnalyzer, DefaultVerifier>
{
    public AnalyzerTest(params string[] sources)
    {
        ReferenceAssemblies = new ReferenceAssemblies("net10.0");
        TestState.AdditionalReferences.AddRange(Framework.Value);
        foreach (var source in sources)
        {
            TestState.Sources.Add(source);
        }
    }

    /// <summary>The runtime's and ASP.NET Core's assemblies the test host runs on.</summary>
    internal static readonly Lazy<MetadataReference[]> Framework = new(() =>
    [
        .. ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator)
            .Where(p => p.Contains("/shared/Microsoft.NETCore.App/", StringComparison.Ordinal) || p.Contains("/shared/Microsoft.AspNetCore.App/", StringComparison.Ordinal))
            .Where(p => !Path.GetFileName(p).StartsWith("Microsoft.VisualBasic", StringComparison.Ordinal))
            .Select(p => MetadataReference.CreateFromFile(p)),
    ]);
}
