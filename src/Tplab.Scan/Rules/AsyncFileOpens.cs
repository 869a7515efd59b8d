using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace Tplab.Scan.Rules;

/// <summary>
/// A file opened for asynchronous I/O — <c>new FileStream(…, useAsync: true)</c>, a <c>FileOptions</c> argument with
/// <c>Asynchronous</c>, a <c>FileStreamOptions</c> whose <c>Options</c> has it — is the form the open's own advice asks
/// for: .NET has no asynchronous open, and the reads and writes of such a file are awaited. Its open is not reported.
/// </summary>
internal static class AsyncFileOpens
{
    // System.IO.FileOptions.Asynchronous.
    private const long Asynchronous = 0x40000000;

    /// <summary>Whether the open <paramref name="call"/> (a constructor or a method) asks for asynchronous I/O.</summary>
    public static bool IsAsynchronous(IOperation call, IOperation body)
    {
        var arguments = call switch
        {
            IObjectCreationOperation creation => creation.Arguments,
            IInvocationOperation invocation => invocation.Arguments,
            _ => [],
        };
        return arguments.Any(a => Asks(a, body));
    }

    private static bool Asks(IArgumentOperation argument, IOperation body)
    {
        if (argument.Parameter is not { } parameter)
        {
            return false;
        }
        if (parameter.Type.SpecialType == SpecialType.System_Boolean)
        {
            return parameter.Name is "useAsync" or "isAsync" && argument.Value.ConstantValue is { HasValue: true, Value: true };
        }
        return Ops.NameOf(parameter.Type) switch
        {
            "System.IO.FileOptions" => HasFlag(argument.Value),
            "System.IO.FileStreamOptions" => ValuesOf(argument.Value, body).Any(v =>
                v is IObjectCreationOperation { Initializer: { } initializer }
                && initializer.Initializers.OfType<ISimpleAssignmentOperation>()
                    .Any(s => s.Target is IPropertyReferenceOperation { Property.Name: "Options" } && HasFlag(s.Value))),
            _ => false,
        };
    }

    private static IEnumerable<IOperation> ValuesOf(IOperation value, IOperation body) =>
        Ops.Unwrap(value) switch
        {
            ILocalReferenceOperation local => Ops.ValuesOf(local.Local, body).Select(v => Ops.Unwrap(v)!).Where(v => v is not null),
            { } other => [other],
            null => [],
        };

    private static bool HasFlag(IOperation value) =>
        value.ConstantValue is { HasValue: true, Value: { } constant }
        && (Convert.ToInt64(constant, CultureInfo.InvariantCulture) & Asynchronous) != 0;
}
