using Microsoft.CodeAnalysis;

namespace Tplab.Scan.Rules;

/// <summary>
/// What ASP.NET Core MVC takes a type to be, by its own rules: the roots use it to find actions, the rules to know that
/// model binding has read the form before an action runs.
/// </summary>
internal static class MvcTypes
{
    private const string Mvc = "Microsoft.AspNetCore.Mvc.";

    /// <summary>
    /// ASP.NET Core's own rule (ControllerFeatureProvider.IsController): a public top-level class, not abstract, not
    /// generic, not [NonController], named *Controller (any case) or carrying [Controller] ([ApiController] and
    /// ControllerBase do), in an assembly that uses MVC.
    /// </summary>
    public static bool IsController(INamedTypeSymbol type) =>
        type is { TypeKind: TypeKind.Class, IsAbstract: false, IsStatic: false, DeclaredAccessibility: Accessibility.Public, IsGenericType: false, ContainingType: null }
        && !HasAttribute(type, Mvc + "NonControllerAttribute", inherit: true)
        && (HasAttribute(type, Mvc + "ControllerAttribute", inherit: true) || HasAttribute(type, Mvc + "ApiControllerAttribute", inherit: true)
            || Ops.IsOrDerives(type, Mvc + "ControllerBase")
            || (type.Name.EndsWith("Controller", StringComparison.OrdinalIgnoreCase) && ReferencesMvc(type)));

    /// <summary>The symbol's attributes, and with <paramref name="inherit"/> its base classes'.</summary>
    public static IEnumerable<AttributeData> Attributes(ISymbol symbol, bool inherit)
    {
        for (var s = symbol; s is not null; s = inherit && s is INamedTypeSymbol t ? t.BaseType : null)
        {
            foreach (var a in s.GetAttributes())
            {
                yield return a;
            }
        }
    }

    public static bool HasAttribute(ISymbol symbol, string name, bool inherit) => Attributes(symbol, inherit).Any(a => Name(a) == name);

    public static string Name(AttributeData attribute) => attribute.AttributeClass is { } c ? SymbolNames.MetadataName(c) : "";

    private static bool ReferencesMvc(INamedTypeSymbol type) =>
        type.ContainingAssembly is { } assembly && assembly.Modules.Any(m => m.ReferencedAssemblies.Any(r => r.Name == "Microsoft.AspNetCore.Mvc.Core"));
}
