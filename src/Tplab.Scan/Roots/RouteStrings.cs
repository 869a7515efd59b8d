using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// The text a route pattern has when the app runs with its defaults, as endpoint providers build patterns: a constant,
/// an interpolation or a concatenation of known parts, a local's initial value when every later assignment sits under
/// a condition (a language prefix set only when a setting is on), a parameter for which every call in source passes
/// the same text. Null when a part is not known: the route is then left out rather than guessed.
/// </summary>
internal static class RouteStrings
{
    private const int MaxDepth = 4;

    /// <summary>The text of <paramref name="operation"/> in <paramref name="body"/> (the root operation of its method), or null.</summary>
    public static string? Value(IOperation? operation, IOperation body, IArgumentSource callers, int depth = 0)
    {
        var op = Ops.Unwrap(operation);
        if (op is null || depth > MaxDepth)
        {
            return null;
        }
        if (op.ConstantValue is { HasValue: true, Value: string constant })
        {
            return constant;
        }
        switch (op)
        {
            case IInterpolatedStringOperation interpolated:
                var text = new StringBuilder();
                foreach (var part in interpolated.Parts)
                {
                    var value = part switch
                    {
                        IInterpolatedStringTextOperation t => Value(t.Text, body, callers, depth),
                        IInterpolationOperation { Alignment: null, FormatString: null } i => Value(i.Expression, body, callers, depth + 1),
                        _ => null,
                    };
                    if (value is null)
                    {
                        return null;
                    }
                    text.Append(value);
                }
                return text.ToString();
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.Add } add when add.Type?.SpecialType == SpecialType.System_String:
                return Value(add.LeftOperand, body, callers, depth + 1) is { } left && Value(add.RightOperand, body, callers, depth + 1) is { } right ? left + right : null;
            case ILocalReferenceOperation local:
                return Initial(local.Local, body) is { } initial ? Value(initial, body, callers, depth + 1) : null;
            case IParameterReferenceOperation parameter:
                var passed = callers.ArgumentsFor(parameter.Parameter).Select(a => Value(a.Value, a.Body, callers, depth + 1)).ToList();
                return passed.Count > 0 && passed.All(p => p is not null && p == passed[0]) ? passed[0] : null;
            default:
                return null;
        }
    }

    // A local's initializer, when nothing assigns it again except under a condition (the default path keeps the initial value).
    private static IOperation? Initial(ILocalSymbol local, IOperation body)
    {
        var declarator = body.Descendants().OfType<IVariableDeclaratorOperation>().FirstOrDefault(d => SymbolEqualityComparer.Default.Equals(d.Symbol, local));
        if (declarator?.Initializer?.Value is not { } initial)
        {
            return null;
        }
        var unconditional = body.Descendants().OfType<IAssignmentOperation>()
            .Any(a => a.Target is ILocalReferenceOperation target && SymbolEqualityComparer.Default.Equals(target.Local, local) && !UnderCondition(a, body));
        return unconditional ? null : initial;
    }

    private static bool UnderCondition(IOperation op, IOperation body)
    {
        for (var p = op.Parent; p is not null && p != body; p = p.Parent)
        {
            if (p is IConditionalOperation or ISwitchOperation or ILoopOperation)
            {
                return true;
            }
        }
        return false;
    }
}
