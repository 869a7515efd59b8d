using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// What a <c>lock</c> locks, as a key two methods share when they lock the same object: a field (static or of a
/// shared instance), <c>this</c> of a type, <c>typeof(T)</c>. A local or parameter that source cannot follow to a
/// field gets a key of its own, shared with nobody.
/// </summary>
internal static class LockKeys
{
    public static (string Key, string Description) Of(IOperation lockedValue, IOperation body, string unique, int depth = 0)
    {
        var v = Ops.Unwrap(lockedValue);
        switch (v)
        {
            case IFieldReferenceOperation f:
                var field = f.Field.OriginalDefinition;
                return ("F:" + (field.GetDocumentationCommentId() ?? field.ToDisplayString()), $"{field.ContainingType?.Name}.{field.Name}");
            case IPropertyReferenceOperation p:
                var property = p.Property.OriginalDefinition;
                return ("P:" + (property.GetDocumentationCommentId() ?? property.ToDisplayString()), $"{property.ContainingType?.Name}.{property.Name}");
            case IInstanceReferenceOperation i when i.Type is INamedTypeSymbol t:
                return ("this:" + SymbolNames.MetadataName(t), $"this ({t.Name})");
            case ITypeOfOperation t when t.TypeOperand is INamedTypeSymbol type:
                return ("typeof:" + SymbolNames.MetadataName(type), $"typeof({type.Name})");
            case ILocalReferenceOperation l when depth < 3:
                var values = Ops.ValuesOf(l.Local, body).ToList();
                return values.Count == 1 ? Of(values[0], body, unique, depth + 1) : ("local:" + unique + l.Local.Name, l.Local.Name);
            default:
                return ("expr:" + unique, v?.Syntax.ToString() ?? "?");
        }
    }
}
