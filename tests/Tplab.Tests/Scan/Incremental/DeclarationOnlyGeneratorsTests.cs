using Tplab.Scan.Incremental;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Incremental;

/// <summary>Which generated sources a body-only edit keeps: named by the generator's assembly and type in their path (Roslyn's layout).</summary>
[ParallelSafe]
public sealed class DeclarationOnlyGeneratorsTests
{
    [Theory]
    [InlineData("/app/obj/Debug/net10.0/Microsoft.CodeAnalysis.Razor.Compiler/Microsoft.NET.Sdk.Razor.SourceGenerators.RazorSourceGenerator/Pages/Invoices/Show_cshtml.g.cs", true)]
    [InlineData("/app/obj/System.Text.RegularExpressions.Generator/System.Text.RegularExpressions.Generator.RegexGenerator/RegexGenerator.g.cs", true)]
    [InlineData("/app/obj/Microsoft.Interop.ComInterfaceGenerator/Microsoft.Interop.ComClassGenerator/Com.g.cs", true)]
    [InlineData(@"C:\app\obj\Microsoft.Extensions.Logging.Generators\Microsoft.Extensions.Logging.Generators.LoggerMessageGenerator\LoggerMessage.g.cs", true)]
    // Interceptors read call sites inside bodies: run again.
    [InlineData("/app/obj/Microsoft.Extensions.Validation.ValidationsGenerator/Microsoft.Extensions.Validation.ValidationsGenerator/ValidatableInfoResolver.g.cs", false)]
    [InlineData("/app/obj/Microsoft.AspNetCore.Http.RequestDelegateGenerator/Microsoft.AspNetCore.Http.RequestDelegateGenerator.RequestDelegateGenerator/GeneratedRouteBuilderExtensions.g.cs", false)]
    // A generator of the same type name in another assembly (a package's, the app's own) is not the SDK's.
    [InlineData("/app/obj/Acme.Generators/Microsoft.NET.Sdk.Razor.SourceGenerators.RazorSourceGenerator/Page.g.cs", false)]
    // The pair must be the folders above the hint, not the file's own name.
    [InlineData("/app/obj/System.Text.Json.SourceGeneration/System.Text.Json.SourceGeneration.JsonSourceGenerator", false)]
    public void Made_ASourcesPath_NamesADeclarationOnlyGenerator(string path, bool made) =>
        Assert.Equal(made, DeclarationOnlyGenerators.Made(new CachedGenerated(path, "")));
}
