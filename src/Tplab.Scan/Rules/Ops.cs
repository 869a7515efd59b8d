using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace Tplab.Scan.Rules;

/// <summary>Small helpers over Roslyn operations shared by the rules.</summary>
internal static class Ops
{
    /// <summary>The operation under implicit and explicit conversions.</summary>
    public static IOperation? Unwrap(IOperation? op)
    {
        while (op is IConversionOperation c)
        {
            op = c.Operand;
        }
        return op;
    }

    /// <summary>The local, parameter or field an operation reads, or null.</summary>
    public static ISymbol? Referenced(IOperation? op) => Unwrap(op) switch
    {
        ILocalReferenceOperation l => l.Local,
        IParameterReferenceOperation p => p.Parameter,
        IFieldReferenceOperation f => f.Field.OriginalDefinition,
        IPropertyReferenceOperation { Property.Parameters.Length: 0 } p => p.Property.OriginalDefinition,
        _ => null,
    };

    /// <summary>The receiver of a call: its instance, or an extension method's first argument.</summary>
    public static IOperation? Receiver(IInvocationOperation invocation) =>
        invocation.Instance ?? (invocation.TargetMethod.IsExtensionMethod && invocation.Arguments.Length > 0 ? invocation.Arguments[0].Value : null);

    /// <summary>Whether <paramref name="type"/> is, or derives from, the type named <paramref name="metadataName"/>.</summary>
    public static bool IsOrDerives(ITypeSymbol? type, string metadataName)
    {
        for (var t = type; t is not null; t = t.BaseType)
        {
            if (t is INamedTypeSymbol named && SymbolNames.MetadataName(named) == metadataName)
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>Whether <paramref name="type"/> is or implements the interface named <paramref name="metadataName"/>.</summary>
    public static bool Implements(ITypeSymbol? type, string metadataName) =>
        type is not null && ((type is INamedTypeSymbol n && SymbolNames.MetadataName(n) == metadataName)
            || type.AllInterfaces.Any(i => SymbolNames.MetadataName(i) == metadataName));

    /// <summary>The type's metadata name, or "" (arrays, pointers, type parameters).</summary>
    public static string NameOf(ITypeSymbol? type) => type is INamedTypeSymbol n ? SymbolNames.MetadataName(n) : "";

    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<IOperation, ILookup<ISymbol, IOperation>> Assignments = new();

    /// <summary>The values assigned to <paramref name="local"/> in <paramref name="body"/>: its initializer and every plain assignment.</summary>
    public static IEnumerable<IOperation> ValuesOf(ILocalSymbol local, IOperation body) =>
        // Indexed once per body: a method with many queries asks for many locals.
        Assignments.GetValue(body, IndexAssignments)[local];

    private static ILookup<ISymbol, IOperation> IndexAssignments(IOperation body)
    {
        var pairs = new List<(ISymbol Local, IOperation Value)>();
        foreach (var op in body.DescendantsAndSelf())
        {
            switch (op)
            {
                case IVariableDeclaratorOperation d when d.GetVariableInitializer() is { } init:
                    pairs.Add((d.Symbol, init.Value));
                    break;
                case ISimpleAssignmentOperation a when Unwrap(a.Target) is ILocalReferenceOperation l:
                    pairs.Add((l.Local, a.Value));
                    break;
            }
        }
        return pairs.ToLookup(p => p.Local, p => p.Value, SymbolEqualityComparer.Default);
    }

    /// <summary>The int constant of an argument, when the source writes one (<c>Wait(0)</c>, <c>Sleep(0)</c>).</summary>
    public static long? ConstantArgument(IInvocationOperation invocation, int index)
    {
        if (invocation.Arguments.Length <= index)
        {
            return null;
        }
        var value = invocation.Arguments[index].Value.ConstantValue;
        if (value.HasValue && value.Value is int or long)
        {
            return Convert.ToInt64(value.Value, System.Globalization.CultureInfo.InvariantCulture);
        }
        // TimeSpan.Zero
        return Unwrap(invocation.Arguments[index].Value) is IFieldReferenceOperation { Field.Name: "Zero" } f && NameOf(f.Field.ContainingType) == "System.TimeSpan" ? 0 : null;
    }
}
