using System.Runtime.CompilerServices;
using System.Text;
using Microsoft.CodeAnalysis;
using Tplab.Blocking;

namespace Tplab.Scan.Rules;

/// <summary>
/// Roslyn symbols in the runtime's names, so that a call read in source matches the same catalogue rows diagnose
/// matches against stack frames: <c>System.Threading.Tasks.Task`1</c> + <c>get_Result</c>.
/// </summary>
internal static class SymbolNames
{
    // Asked for the same few thousand types millions of times on a large solution (dispatch, DI): made once per
    // definition symbol, held no longer than the compilation that owns it.
    private static readonly ConditionalWeakTable<INamedTypeSymbol, string> Names = new();
    private static readonly ConditionalWeakTable<IMethodSymbol, string> Keys = new();

    /// <summary><c>Namespace.Outer+Inner`1</c>: the open type's metadata name, as stack frames print it.</summary>
    public static string MetadataName(INamedTypeSymbol type) => Names.GetValue(type.OriginalDefinition, MakeMetadataName);

    private static string MakeMetadataName(INamedTypeSymbol type)
    {
        var parts = new Stack<string>();
        for (var t = type.OriginalDefinition; t is not null; t = t.ContainingType)
        {
            parts.Push(t.MetadataName);
        }
        var ns = type.ContainingNamespace is { IsGlobalNamespace: false } n ? n.ToDisplayString() + "." : "";
        return ns + string.Join('+', parts);
    }

    /// <summary>The frame the runtime would show for a call of <paramref name="method"/>.</summary>
    public static StackFrame Frame(IMethodSymbol method)
    {
        var m = Definition(method);
        return new StackFrame(m.ContainingAssembly?.Name ?? "", m.ContainingType is { } t ? MetadataName(t) : "", m.Name);
    }

    /// <summary>The declared method: an extension call's static method, a generic method's or type's open definition.</summary>
    public static IMethodSymbol Definition(IMethodSymbol method)
    {
        var m = method.ReducedFrom ?? method;
        return m.OriginalDefinition;
    }

    /// <summary>
    /// The method a developer wrote (type and name), with lambdas and local functions folded into the method that
    /// holds them and top-level statements named <c>Main</c>, as diagnose names user frames.
    /// </summary>
    public static (string Type, string Method) UserMethod(IMethodSymbol symbol)
    {
        ISymbol s = symbol;
        while (s is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction or MethodKind.LocalFunction } && s.ContainingSymbol is { } outer)
        {
            s = outer;
        }
        var type = s as INamedTypeSymbol ?? s.ContainingType;
        var name = s switch
        {
            IMethodSymbol { Name: "<Main>$" } => "Main",
            IMethodSymbol { MethodKind: MethodKind.PropertyGet or MethodKind.PropertySet } m => m.Name,
            IMethodSymbol m => m.Name,
            IPropertySymbol p => p.Name,
            IFieldSymbol f => f.Name,
            _ => s.Name,
        };
        return (type is null ? "" : MetadataName(type), name);
    }

    /// <summary>A key for a method that is the same for a symbol and its retargeted twin in another project's compilation.</summary>
    public static string Key(IMethodSymbol method) => Keys.GetValue(Definition(method), m => m.GetDocumentationCommentId() ?? m.ToDisplayString());

    /// <summary><c>IOrderStore.Load</c>, for "one of 2 implementations of ..." lines.</summary>
    public static string Short(IMethodSymbol method)
    {
        var m = Definition(method);
        var sb = new StringBuilder();
        if (m.ContainingType is { } t)
        {
            sb.Append(t.Name).Append('.');
        }
        return sb.Append(m.Name).ToString();
    }
}
