using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// Reads the shape of a branch: one that only bails out (returns nothing, null, a constant or an error result, or
/// throws) is the exception to the path requests take; one that returns a value is a fast path, and the code after it
/// runs only when the fast path was not taken.
/// </summary>
internal static class Branches
{
    private static readonly HashSet<string> ErrorResults = new(StringComparer.Ordinal)
    {
        "NotFound", "BadRequest", "Unauthorized", "Forbid", "Problem", "ValidationProblem", "NoContent", "Conflict", "UnprocessableEntity",
        "StatusCode", "Challenge", "NotFoundResult", "BadRequestResult",
    };

    /// <summary>The branch ends the work without doing any: <c>return;</c>, <c>return null</c>, <c>return NotFound()</c>, <c>throw</c>, <c>null</c>.</summary>
    public static bool IsBailOut(IOperation? branch) => Last(branch) switch
    {
        null => true,
        IReturnOperation r => r.ReturnedValue is null || IsTrivial(r.ReturnedValue),
        IExpressionStatementOperation { Operation: IThrowOperation } or IThrowOperation => true,
        IBranchOperation => true,
        IExpressionStatementOperation e => IsTrivial(e.Operation),
        var value => IsTrivial(value),
    };

    /// <summary>The branch returns a real value (a cache hit, a computed result): a fast path.</summary>
    public static bool ReturnsAValue(IOperation? branch) =>
        Last(branch) is IReturnOperation { ReturnedValue: { } value } && !IsTrivial(value);

    private static IOperation? Last(IOperation? branch)
    {
        while (branch is IBlockOperation block)
        {
            branch = block.Operations.LastOrDefault();
        }
        return branch;
    }

    private static bool IsTrivial(IOperation value) => Ops.Unwrap(value) switch
    {
        ILiteralOperation or IDefaultValueOperation or IThrowOperation => true,
        { ConstantValue.HasValue: true } => true,
        IInvocationOperation i => ErrorResults.Contains(i.TargetMethod.Name) && i.Arguments.All(a => Ops.Unwrap(a.Value) is ILiteralOperation or IDefaultValueOperation or null || a.ArgumentKind == ArgumentKind.DefaultValue),
        IObjectCreationOperation c => c.Type?.Name is "NotFoundResult" or "BadRequestResult" or "UnauthorizedResult" or "NoContentResult",
        _ => false,
    };
}
