using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace Tplab.Scan.Fix.Rewrites;

/// <summary>
/// <c>Parallel.ForEach(source, item =&gt; body)</c> → <c>await Parallel.ForEachAsync(source, (item, cancellationToken) =&gt; { body; return ValueTask.CompletedTask; })</c>
/// (and <c>Parallel.For</c> → <c>Parallel.ForAsync</c>): the request thread no longer waits for the loop, the items
/// still run in parallel on the pool. Only the forms with the same meaning: a body lambda taking the item alone (no
/// <c>ParallelLoopState</c>, no thread-local state), an optional <c>ParallelOptions</c>, the loop's result unused, and
/// no enclosing <c>catch (AggregateException)</c> (awaited, the first exception surfaces as itself). Two differences
/// are said in the change's description: without <c>ParallelOptions.MaxDegreeOfParallelism</c> the async loop runs at
/// most <c>Environment.ProcessorCount</c> items at once (the sync one: as many as the pool gives), and an exception
/// surfaces unwrapped. <c>Parallel.Invoke</c> is refused with its advice.
/// </summary>
internal static class ParallelLoops
{
    private static readonly string[] TokenNames = ["cancellationToken", "loopToken", "ct"];

    public static (SiteEdit? Edit, string? Refusal) Rewrite(SemanticModel model, InvocationExpressionSyntax call, bool configureAwait)
    {
        if (model.GetSymbolInfo(call).Symbol is not IMethodSymbol method || method.ContainingType.ToDisplayString() != "System.Threading.Tasks.Parallel")
        {
            return (null, "this parallel loop is not one tplab rewrites: use Parallel.ForEachAsync, or start the tasks and await Task.WhenAll");
        }
        var name = $"Parallel.{method.Name}";
        if (method.Name is not ("ForEach" or "For"))
        {
            return (null, $"{name} has no async twin: start each action as a task (or call its async form) and await Task.WhenAll");
        }
        if (call.Parent is not ExpressionStatementSyntax)
        {
            return (null, $"the ParallelLoopResult of {name} is used: {name}Async has none; rewrite the loop with Parallel.{method.Name}Async by hand");
        }
        var isFor = method.Name == "For";
        var expected = isFor ? 3 : 2;
        var options = method.Parameters.Length == expected + 1 && method.Parameters[expected - 1].Type.Name == "ParallelOptions";
        if (method.Parameters.Length != expected && !options
            || method.Parameters[^1].Type is not INamedTypeSymbol { DelegateInvokeMethod: { ReturnsVoid: true, Parameters.Length: 1 } }
            || (isFor ? method.Parameters[0].Type.SpecialType is not (SpecialType.System_Int32 or SpecialType.System_Int64)
                : method.Parameters[0].Type.OriginalDefinition.SpecialType != SpecialType.System_Collections_Generic_IEnumerable_T))
        {
            return (null, $"this form of {name} (a ParallelLoopState for Break/Stop, thread-local state, a Partitioner) has no {name}Async twin: rewrite the loop by hand with Parallel.{method.Name}Async or Task.WhenAll");
        }
        if (call.ArgumentList.Arguments.Any(a => a.NameColon is not null)
            || call.ArgumentList.Arguments[^1].Expression is not LambdaExpressionSyntax lambda
            || lambda is ParenthesizedLambdaExpressionSyntax { ParameterList.Parameters.Count: not 1 }
            || lambda.AsyncKeyword.IsKind(SyntaxKind.AsyncKeyword))
        {
            return (null, $"{name}'s body is not a lambda tplab can carry over (a method group, named arguments, an async lambda): rewrite it with Parallel.{method.Name}Async by hand");
        }
        if (call.Ancestors().OfType<TryStatementSyntax>().Any(t => t.Catches.Any(c => c.Declaration is { } d && model.GetTypeInfo(d.Type).Type?.ToDisplayString() == "System.AggregateException")))
        {
            return (null, FixReasons.ExceptionShape.Say($"an enclosing catch (AggregateException) expects {name}'s wrapped exceptions, which an awaited {name}Async does not throw: rewrite the loop and its handler by hand"));
        }
        var scope = call.Ancestors().FirstOrDefault(a => a is MemberDeclarationSyntax) ?? call;
        var used = scope.DescendantTokens().Where(t => t.IsKind(SyntaxKind.IdentifierToken)).Select(t => t.ValueText).ToHashSet(StringComparer.Ordinal);
        var token = TokenNames.FirstOrDefault(n => !used.Contains(n));
        if (token is null)
        {
            return (null, $"no free name for {name}Async's token parameter: rewrite the loop by hand");
        }
        var (valueTask, usings) = ValueTaskName(model, call);
        var newline = AsyncSyntax.Newline(call.SyntaxTree.GetRoot());
        var item = lambda is SimpleLambdaExpressionSyntax simple ? simple.Parameter.Identifier : ((ParenthesizedLambdaExpressionSyntax)lambda).ParameterList.Parameters[0].Identifier;
        var description = $"{name} → await {name}Async (at most Environment.ProcessorCount items at once unless its ParallelOptions says otherwise; an exception surfaces as itself, not in an AggregateException)";
        return (new SiteEdit(call, n =>
        {
            var current = (InvocationExpressionSyntax)n;
            var body = (AnonymousFunctionExpressionSyntax)current.ArgumentList.Arguments[^1].Expression;
            var asyncBody = Body(model, lambda, body, item, token, valueTask, newline);
            var args = current.ArgumentList.Arguments.Replace(current.ArgumentList.Arguments[^1], current.ArgumentList.Arguments[^1].WithExpression(asyncBody));
            var loop = current.WithExpression(((MemberAccessExpressionSyntax)current.Expression).WithName(IdentifierName(method.Name + "Async")))
                .WithArgumentList(current.ArgumentList.WithArguments(args));
            return AsyncSyntax.Await(loop, n, configureAwait);
        }, usings, description), null);
    }

    // (item, token) => { body; return ValueTask.CompletedTask; }: every return of the body returns the completed task.
    private static ParenthesizedLambdaExpressionSyntax Body(SemanticModel model, AnonymousFunctionExpressionSyntax original, AnonymousFunctionExpressionSyntax current, SyntaxToken item, string token, string valueTask, string newline)
    {
        var completed = $"{valueTask}.CompletedTask";
        SyntaxNode before = current is SimpleLambdaExpressionSyntax s ? s.Parameter : ((ParenthesizedLambdaExpressionSyntax)current).ParameterList;
        var parameters = ParameterList(SeparatedList([Parameter(item.WithoutTrivia()), Parameter(Identifier(token))], [Token(SyntaxKind.CommaToken).WithTrailingTrivia(Space)]))
            .WithTrailingTrivia(before.GetTrailingTrivia());
        BlockSyntax block;
        if (current.Body is BlockSyntax b)
        {
            var rewritten = b.ReplaceNodes(b.DescendantNodes().OfType<ReturnStatementSyntax>().Where(r => r.Expression is null && AsyncSyntax.DirectlyIn(r, b)),
                (r, _) => r.WithExpression(ParseExpression(completed).WithLeadingTrivia(Space)));
            var originalBlock = (BlockSyntax)original.Body;
            var reachable = originalBlock.Statements.Count == 0
                || model.AnalyzeControlFlow(originalBlock.Statements[0], originalBlock.Statements[^1]) is not { Succeeded: true } flow || flow.EndPointIsReachable;
            if (reachable)
            {
                var indent = rewritten.Statements.LastOrDefault()?.GetLeadingTrivia().LastOrDefault(t => t.IsKind(SyntaxKind.WhitespaceTrivia)).ToString()
                    ?? rewritten.CloseBraceToken.LeadingTrivia.ToString() + "    ";
                rewritten = rewritten.AddStatements(ParseStatement($"return {completed};").WithLeadingTrivia(Whitespace(indent)).WithTrailingTrivia(EndOfLine(newline)));
            }
            block = rewritten;
        }
        else
        {
            var expression = (ExpressionSyntax)current.Body;
            block = Block(ExpressionStatement(expression.WithoutTrivia()), ParseStatement($"return {completed};").WithLeadingTrivia(Space))
                .WithOpenBraceToken(Token(SyntaxKind.OpenBraceToken).WithTrailingTrivia(Space))
                .WithCloseBraceToken(Token(SyntaxKind.CloseBraceToken).WithLeadingTrivia(Space))
                .WithTriviaFrom(expression);
            block = block.WithStatements(List([block.Statements[0].WithTrailingTrivia(), block.Statements[1]]));
        }
        return ParenthesizedLambdaExpression(parameters, block)
            .WithArrowToken(((LambdaExpressionSyntax)current).ArrowToken)
            .WithLeadingTrivia(current.GetLeadingTrivia());
    }

    private static (string Name, IReadOnlyList<string> Usings) ValueTaskName(SemanticModel model, SyntaxNode at)
    {
        var named = model.LookupNamespacesAndTypes(at.SpanStart, name: "ValueTask");
        if (named.Any(s => s.ToDisplayString() == "System.Threading.Tasks.ValueTask"))
        {
            return ("ValueTask", []);
        }
        return named.IsEmpty ? ("ValueTask", ["System.Threading.Tasks"]) : ("System.Threading.Tasks.ValueTask", []);
    }
}
