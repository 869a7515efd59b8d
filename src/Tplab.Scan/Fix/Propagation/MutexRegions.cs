using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Tplab.Scan.Fix.Propagation;

/// <summary>
/// The shapes of a mutex's wait whose release runs exactly when the wait got it, so a semaphore can stand in:
/// <c>m.WaitOne();</c> followed by <c>try { … } finally { m.ReleaseMutex(); }</c>; <c>if (m.WaitOne(timeout)) { try … finally … }</c>;
/// <c>if (!m.WaitOne(timeout)) { return …; }</c> followed by the <c>try</c>. Anything else (a timed wait released
/// whether or not it got the mutex, a release outside the <c>finally</c>, the wait and the release in different
/// methods) has no pair.
/// </summary>
internal static class MutexRegions
{
    /// <summary>The <c>try</c> the wait holds the mutex over and the release in its <c>finally</c>; null when the wait is not in one of the shapes.</summary>
    public static (TryStatementSyntax Region, InvocationExpressionSyntax Release)? Pair(SemanticModel model, InvocationExpressionSyntax wait, IFieldSymbol mutex, CancellationToken cancellationToken)
    {
        var args = wait.ArgumentList.Arguments;
        if (args.Count > 1 || (args.Count == 1 && model.GetTypeInfo(args[0].Expression, cancellationToken).ConvertedType?.ToDisplayString() is not ("int" or "System.TimeSpan")))
        {
            return null;
        }
        var timed = args.Count == 1;
        var region = wait.Parent switch
        {
            ExpressionStatementSyntax statement when !timed => Next(statement),
            IfStatementSyntax test when timed && test.Condition == wait => First(test.Statement),
            PrefixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.LogicalNotExpression, Parent: IfStatementSyntax test } negated
                when timed && test.Condition == negated && test.Else is null && model.AnalyzeControlFlow(test.Statement) is { Succeeded: true, EndPointIsReachable: false } => Next(test),
            _ => null,
        };
        var release = region?.Finally?.Block.Statements.OfType<ExpressionStatementSyntax>().Select(s => s.Expression).OfType<InvocationExpressionSyntax>()
            .FirstOrDefault(r => r is { ArgumentList.Arguments.Count: 0, Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ReleaseMutex" } access }
                && SymbolEqualityComparer.Default.Equals(model.GetSymbolInfo(access.Expression, cancellationToken).Symbol, mutex));
        return release is null ? null : (region!, release);
    }

    // The try statement right after this one in its block.
    private static TryStatementSyntax? Next(StatementSyntax statement) =>
        statement.Parent is BlockSyntax block && block.Statements.IndexOf(statement) is var i && i + 1 < block.Statements.Count
            ? block.Statements[i + 1] as TryStatementSyntax : null;

    // The try statement that is the branch, or that opens its block.
    private static TryStatementSyntax? First(StatementSyntax branch) => branch switch
    {
        TryStatementSyntax t => t,
        BlockSyntax { Statements: [TryStatementSyntax t, ..] } => t,
        _ => null,
    };
}
