using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix.Checks;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Propagation;

/// <summary>
/// Whether a lambda that must await can become <c>async</c>: by its delegate type (<c>Delegate</c>, a delegate that
/// returns a task, <c>Task.Run</c>'s argument), and <c>await Task.Run(() =&gt; Blocking())</c> unwrapped to the
/// awaited call itself. A continuation <c>t.ContinueWith(x =&gt; …)</c> becomes <c>t.ContinueWith(async x =&gt; …).Unwrap()</c>:
/// the call keeps its type, scheduler and options, and the task it returns still ends when the continuation does.
/// Any other lambda whose delegate returns no task cannot: it would become <c>async void</c> or change the delegate's type.
/// </summary>
internal sealed class AsyncLambda(FixContext context, List<string> reshaped, DelegateParameter? parameters = null)
{
    /// <summary>Plans the lambda made async; null when it can be, else why not.</summary>
    public async Task<string?> DecideAsync(SemanticModel model, AnonymousFunctionExpressionSyntax lambda)
    {
        if (lambda.AsyncKeyword.IsKind(SyntaxKind.AsyncKeyword))
        {
            return null;
        }
        var delegateType = model.GetTypeInfo(lambda, context.CancellationToken).ConvertedType as INamedTypeSymbol;
        var symbol = model.GetSymbolInfo(lambda, context.CancellationToken).Symbol as IMethodSymbol;
        var returnsTask = symbol is not null && FixTypes.IsTask(symbol.ReturnType);
        // await Task.Run(() => Blocking()) → await BlockingAsync(): the hop saves nothing once the call is awaited, unless
        // the lambda or the method it calls reads its thread (TPFIX005): then Task.Run stays, its lambda returning the task.
        if (TaskRunUnwrap(model, lambda) is { } run)
        {
            var called = OneCall(lambda) is { } one ? model.GetSymbolInfo(one, context.CancellationToken).Symbol as IMethodSymbol : null;
            if (ThreadHop.Refusal(model, lambda, called, context.CancellationToken) is not { } hop)
            {
                var configured = run.Parent is MemberAccessExpressionSyntax;
                context.Changes.Replace(run, n => Unwrapped((InvocationExpressionSyntax)n, configured));
                return null;
            }
            reshaped.Add($"Task.Run kept at {context.Where(run)}: {hop}");
        }
        if (!returnsTask && ContinueWithCall(model, lambda) is { } continuation)
        {
            context.TypeName(model, continuation, "TaskExtensions", "System.Threading.Tasks");
            context.Changes.Replace(continuation, n => SyntaxFactory.InvocationExpression(SyntaxFactory.MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression,
                ((ExpressionSyntax)n).WithoutTrailingTrivia(), SyntaxFactory.IdentifierName("Unwrap"))).WithTrailingTrivia(n.GetTrailingTrivia()));
            context.Changes.Containers[lambda] = new ContainerChange();
            reshaped.Add($"ContinueWith(x => …) → ContinueWith(async x => …).Unwrap() at {context.Where(continuation)}: the continuation awaits instead of holding its pool thread");
            return null;
        }
        // A timer callback may be async void: the timer never waited for it, an exception in it ends the process either
        // way, and ticks overlap when the work outlasts the period, as they did.
        var timer = FixTypes.IsTimerCallback(delegateType);
        var ok = delegateType is null
            || delegateType.ToDisplayString() is "System.Delegate" or "System.MulticastDelegate"
            || (delegateType.DelegateInvokeMethod is { } invoke && FixTypes.IsTask(invoke.ReturnType))
            || IsTaskRunArgument(model, lambda)
            || timer;
        if (timer)
        {
            reshaped.Add(TimerNote(context.Where(lambda)));
        }
        if (!ok && parameters is not null && await parameters.ChangeAsync(model, lambda).ConfigureAwait(false) is { Applies: true } change)
        {
            return change.Why is null ? null : FixReasons.DelegateType.Say($"a lambda passed as {delegateType!.ToDisplayString()} cannot become async without changing the delegate's type, and {change.Why}");
        }
        if (!ok)
        {
            return FixReasons.DelegateType.Say(delegateType!.DelegateInvokeMethod is { ReturnsVoid: true }
                ? $"a lambda passed as {delegateType.ToDisplayString()} would become async void: the caller could not wait for it"
                : $"a lambda passed as {delegateType.ToDisplayString()} cannot become async without changing the delegate's type");
        }
        context.Changes.Containers[lambda] = new ContainerChange
        {
            AwaitsReturns = returnsTask,
            HasResult = returnsTask && symbol!.ReturnType is INamedTypeSymbol { IsGenericType: true },
            ReturnsTheTask = IsTaskRunArgument(model, lambda),
        };
        return null;
    }

    /// <summary>A method group handed to a timer, wrapped: <c>async state =&gt; await M(state)</c>.</summary>
    public static ExpressionSyntax TimerWrap(ExpressionSyntax method, bool configureAwait)
    {
        ExpressionSyntax call = SyntaxFactory.InvocationExpression(method.WithoutTrivia(),
            SyntaxFactory.ArgumentList(SyntaxFactory.SingletonSeparatedList(SyntaxFactory.Argument(SyntaxFactory.IdentifierName("state")))));
        if (configureAwait)
        {
            call = SyntaxFactory.InvocationExpression(SyntaxFactory.MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, call, SyntaxFactory.IdentifierName("ConfigureAwait")),
                SyntaxFactory.ArgumentList(SyntaxFactory.SingletonSeparatedList(SyntaxFactory.Argument(SyntaxFactory.LiteralExpression(SyntaxKind.FalseLiteralExpression)))));
        }
        return SyntaxFactory.SimpleLambdaExpression(SyntaxFactory.Parameter(SyntaxFactory.Identifier("state")))
            .WithAsyncKeyword(SyntaxFactory.Token(SyntaxKind.AsyncKeyword))
            .WithExpressionBody(SyntaxFactory.AwaitExpression(call))
            .NormalizeWhitespace()
            .WithTriviaFrom(method);
    }

    /// <summary>The report's line for a timer callback made async.</summary>
    public static string TimerNote(string where) =>
        $"the timer callback at {where} becomes async (async void, as a timer callback may be: the timer never waited for it, an exception in it still ends the process, and ticks still overlap when the work outlasts the period)";

    /// <summary>The <c>Task.Run</c> call when <paramref name="lambda"/> is its only argument, parameterless and one call (<see cref="OneCall"/>), and the call is awaited at once (through <c>.ConfigureAwait(…)</c> too).</summary>
    public static InvocationExpressionSyntax? TaskRunUnwrap(SemanticModel model, AnonymousFunctionExpressionSyntax lambda) =>
        OneCall(lambda) is not null && lambda.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Arguments.Count: 1, Parent: InvocationExpressionSyntax run } }
            && (run.Parent is AwaitExpressionSyntax
                || run.Parent is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ConfigureAwait", Parent: InvocationExpressionSyntax { Parent: AwaitExpressionSyntax } })
            && IsTaskRunArgument(model, lambda) && lambda is ParenthesizedLambdaExpressionSyntax { ParameterList.Parameters.Count: 0 }
            ? run : null;

    /// <summary>The one expression a lambda runs: its expression body, or its block's single return or expression statement.</summary>
    private static ExpressionSyntax? OneCall(AnonymousFunctionExpressionSyntax lambda) => lambda switch
    {
        { ExpressionBody: { } body } => body,
        { Block.Statements: [ReturnStatementSyntax { Expression: { } returned }] } => returned,
        { Block.Statements: [ExpressionStatementSyntax { Expression: var statement }] } => statement,
        _ => null,
    };

    // Task.Run(() => await XAsync()) → XAsync() (its own ConfigureAwait dropped where the Task.Run had one); a lambda
    // that is more than that await once its calls are awaited is made async instead, and Task.Run stays.
    private static ExpressionSyntax Unwrapped(InvocationExpressionSyntax run, bool configured)
    {
        var lambda = (AnonymousFunctionExpressionSyntax)run.ArgumentList.Arguments[0].Expression;
        if (OneCall(lambda) is AwaitExpressionSyntax { Expression: var awaited })
        {
            if (configured && awaited is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ConfigureAwait" } inner })
            {
                awaited = inner.Expression;
            }
            return awaited.WithTriviaFrom(run);
        }
        var lead = lambda.GetLeadingTrivia();
        return run.ReplaceNode(lambda, lambda.WithoutLeadingTrivia().WithAsyncKeyword(SyntaxFactory.Token(SyntaxKind.AsyncKeyword).WithTrailingTrivia(SyntaxFactory.Space)).WithLeadingTrivia(lead));
    }

    /// <summary>The <c>ContinueWith</c> call of <c>Task</c>/<c>Task&lt;T&gt;</c> whose continuation <paramref name="lambda"/> is (its first argument).</summary>
    public static InvocationExpressionSyntax? ContinueWithCall(SemanticModel model, AnonymousFunctionExpressionSyntax lambda) =>
        lambda.Parent is ArgumentSyntax { NameColon: null, Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax call } list } argument && list.Arguments[0] == argument
        && model.GetSymbolInfo(call).Symbol is IMethodSymbol { Name: "ContinueWith" } m
        && m.ContainingType.OriginalDefinition.ToDisplayString() is "System.Threading.Tasks.Task" or "System.Threading.Tasks.Task<TResult>"
            ? call : null;

    public static bool IsTaskRunArgument(SemanticModel model, AnonymousFunctionExpressionSyntax lambda) =>
        lambda.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Parent: InvocationExpressionSyntax run } }
        && model.GetSymbolInfo(run).Symbol is IMethodSymbol { Name: "Run" } m && m.ContainingType.ToDisplayString() == "System.Threading.Tasks.Task";
}
