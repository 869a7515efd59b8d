using System.Globalization;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;

namespace Tplab.Scan.Plan;

/// <summary>
/// Fills a route template with values that fit its constraints and its parameters' types, as ASP.NET Core's routing
/// reads them (docs: "Route constraints"): <c>{id:int}</c> → 1, <c>{id:guid}</c> → a GUID, <c>{slug}</c> → sample,
/// <c>{n:min(5)}</c> → 5, <c>{code:length(3)}</c> → aaa, <c>{*path}</c> → sample, <c>{controller=Home}</c> → Home.
/// Optional parameters are filled too: a value reaches more of the handler than none.
/// </summary>
public static partial class RouteValues
{
    /// <summary>A value of this GUID's shape fits <c>:guid</c>; any fixed one does, so the plan reads the same each time.</summary>
    public const string SampleGuid = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";

    /// <summary>The path for <paramref name="template"/>; <paramref name="typeOf"/> gives a route parameter's CLR type from the handler, when known.</summary>
    public static string Fill(string template, Func<string, ITypeSymbol?> typeOf)
    {
        ArgumentNullException.ThrowIfNull(template);
        ArgumentNullException.ThrowIfNull(typeOf);
        var filled = new System.Text.StringBuilder();
        var i = 0;
        // A '?' outside braces starts the query (a Razor Page's ?handler=); inside, it marks an optional parameter.
        for (; i < template.Length && template[i] != '?'; i++)
        {
            if (template[i] != '{')
            {
                filled.Append(template[i]);
                continue;
            }
            // A regex constraint doubles its literal braces ({{ }}): the parameter ends where the braces balance.
            var start = i + 1;
            for (var depth = 0; i < template.Length; i++)
            {
                depth += template[i] == '{' ? 1 : template[i] == '}' ? -1 : 0;
                if (depth == 0)
                {
                    break;
                }
            }
            filled.Append(Uri.EscapeDataString(Value(template[start..Math.Min(i, template.Length)], typeOf)));
        }
        var path = filled.ToString().Replace("//", "/", StringComparison.Ordinal);
        return (path.StartsWith('/') ? path : "/" + path) + template[i..];
    }

    /// <summary>A value for one parameter's text between the braces: <c>*path:nonfile</c>, <c>id:int:min(1)</c>, <c>controller=Home</c>, <c>id?</c>.</summary>
    internal static string Value(string parameter, Func<string, ITypeSymbol?> typeOf)
    {
        var text = parameter.TrimStart('*');
        var equals = text.IndexOf('=', StringComparison.Ordinal);
        if (equals >= 0)
        {
            var fallback = text[(equals + 1)..];
            if (fallback.Length > 0)
            {
                return fallback;
            }
            text = text[..equals];
        }
        var parts = Constraints().Matches(text.TrimEnd('?')).Select(m => m.Value).ToList();
        var name = parts.Count > 0 ? parts[0] : text;
        var constraints = parts.Skip(1).Select(c => c.TrimStart(':')).ToList();
        // A range or length narrows the value its type constraint would give: {id:long:min(5)} → 5.
        foreach (var c in constraints.OrderBy(c => c.Contains('(', StringComparison.Ordinal) ? 0 : 1))
        {
            if (ForConstraint(c) is { } value)
            {
                return value;
            }
        }
        return ForType(typeOf(name)) ?? "sample";
    }

    // The constraint decides the shape; length and range constraints narrow a number or a text.
    private static string? ForConstraint(string constraint)
    {
        var open = constraint.IndexOf('(', StringComparison.Ordinal);
        var name = (open >= 0 ? constraint[..open] : constraint).ToLowerInvariant();
        var args = open >= 0 ? constraint[(open + 1)..].TrimEnd(')').Split(',') : [];
        int Arg(int i) => args.Length > i && int.TryParse(args[i].Trim(), NumberStyles.Integer, CultureInfo.InvariantCulture, out var n) ? n : 1;
        return name switch
        {
            "int" or "long" => "1",
            "decimal" or "double" or "float" => "1.5",
            "bool" => "true",
            "guid" => SampleGuid,
            "datetime" => "2026-01-15",
            "min" or "range" => Arg(0).ToString(CultureInfo.InvariantCulture),
            "max" => Math.Min(1, Arg(0)).ToString(CultureInfo.InvariantCulture),
            "length" or "minlength" => new string('a', Math.Max(1, Arg(0))),
            "maxlength" => new string('a', Math.Clamp(Arg(0), 1, 6)),
            "alpha" => "sample",
            _ => null,
        };
    }

    /// <summary>A sample value of a simple type as text (route or query); null for a type that is not simple.</summary>
    internal static string? ForType(ITypeSymbol? type)
    {
        if (type is INamedTypeSymbol { OriginalDefinition.SpecialType: SpecialType.System_Nullable_T } nullable)
        {
            type = nullable.TypeArguments[0];
        }
        return type switch
        {
            null => null,
            { SpecialType: SpecialType.System_Int16 or SpecialType.System_Int32 or SpecialType.System_Int64 or SpecialType.System_Byte
                or SpecialType.System_UInt16 or SpecialType.System_UInt32 or SpecialType.System_UInt64 } => "1",
            { SpecialType: SpecialType.System_Decimal or SpecialType.System_Double or SpecialType.System_Single } => "1.5",
            { SpecialType: SpecialType.System_Boolean } => "true",
            { SpecialType: SpecialType.System_String or SpecialType.System_Char } => "sample",
            { SpecialType: SpecialType.System_DateTime } => "2026-01-15",
            { TypeKind: TypeKind.Enum } e => e.GetMembers().OfType<IFieldSymbol>().FirstOrDefault(f => f.HasConstantValue)?.Name ?? "0",
            _ when type.ToDisplayString() is "System.Guid" => SampleGuid,
            _ when type.ToDisplayString() is "System.DateTimeOffset" or "System.DateOnly" => "2026-01-15",
            _ when type.ToDisplayString() is "System.TimeSpan" or "System.TimeOnly" => "00:01:00",
            _ => null,
        };
    }

    // "id:int:min(1)" → "id", ":int", ":min(1)"; a regex constraint's own colons stay inside its parentheses.
    [GeneratedRegex(@"^[^:]+|:[a-zA-Z]+(\((?:[^()]|\([^()]*\))*\))?")]
    private static partial Regex Constraints();
}
