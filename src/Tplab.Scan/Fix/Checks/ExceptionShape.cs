using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Blocking;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Checks;

/// <summary>
/// TPFIX002: <c>.Result</c>, <c>.Wait()</c> and <c>Task.WaitAll</c> throw an <c>AggregateException</c>; <c>await</c>
/// throws the first inner exception, and so does every caller up the chain that awaits it. A catch that reads the
/// exception's shape — on <c>AggregateException</c>, on the inner exception's own type (which would start matching),
/// with a filter, or reading <c>InnerException(s)</c>, <c>Flatten</c>, <c>Handle</c>, the type or the message — around
/// the wait or around any caller the fix makes await would silently change what it does. Where the task is a
/// <c>Task</c> read once (<c>.Result</c>, <c>.Wait()</c>) the fix keeps the shape exactly by awaiting a continuation
/// that reads the finished task (<see cref="KeepAggregate"/>); otherwise it refuses.
/// </summary>
internal static class ExceptionShape
{
    private static readonly HashSet<string> ShapeWords = new(StringComparer.Ordinal)
    {
        "AggregateException", "InnerException", "InnerExceptions", "Flatten", "Handle", "GetBaseException", "GetType", "Message",
    };

    /// <summary>Whether the site's rewrite changes the exception thrown: a Task's Result or Wait(), Task.WaitAll, a Parallel loop.</summary>
    public static bool Changes(SemanticModel model, SyntaxNode site, BlockingCall call, CancellationToken cancellationToken)
    {
        var kind = BlockingCallCatalogue.RewriteFor(call).Kind;
        if (kind is AsyncRewriteKind.WhenAll or AsyncRewriteKind.ParallelAsync)
        {
            return true;
        }
        // GetAwaiter().GetResult() and a ValueTask's Result already throw the inner exception, as await does.
        return kind == AsyncRewriteKind.AwaitTask && Receiver(site) is { } task && IsTask(model.GetTypeInfo(task, cancellationToken).Type);
    }

    /// <summary>The first catch around <paramref name="point"/> in its container that reads the exception's shape, said with its place; null when none.</summary>
    public static string? Observer(SyntaxNode point, SyntaxNode container, Func<SyntaxNode, string> where)
    {
        for (var n = point.Parent; n is not null && n != container; n = n.Parent)
        {
            if (n is AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax)
            {
                return null;
            }
            if (n is TryStatementSyntax @try && @try.Block.Span.Contains(point.Span))
            {
                foreach (var c in @try.Catches.Where(Reads))
                {
                    var head = c.Declaration is null ? "catch" : $"catch ({c.Declaration.Type}{(c.Declaration.Identifier.IsKind(SyntaxKind.None) ? "" : " " + c.Declaration.Identifier.ValueText)})";
                    return $"{head}{(c.Filter is null ? "" : " when (…)")} at {where(c)}";
                }
            }
        }
        return null;
    }

    /// <summary>The first catch that reads the exception's shape around any place the fix awaits or waits on (the site, every caller); null when none.</summary>
    public static string? FirstObserver(IEnumerable<SyntaxNode> points, Func<SyntaxNode, string> where)
    {
        foreach (var point in points)
        {
            if (AsyncRules.Container(point).Container is { } container && Observer(point, container, where) is { } observer)
            {
                return observer;
            }
        }
        return null;
    }

    /// <summary>The refusal when the shape cannot be kept: a Task.WaitAll's aggregate holds every task's exception, a Parallel loop's every item's.</summary>
    public static string Refusal(BlockingCall call, string observer) => FixReasons.ExceptionShape.Say(
        $"{observer} reads the AggregateException {call.Name} throws, and the awaited form throws its first inner exception instead (through every caller that awaits it); rewrite that catch for the inner exception (or await Task.WhenAll and read each task's Exception) first, then fix again");

    // catch { } and catch (Exception) that never look at the exception keep their meaning; anything else may not.
    private static bool Reads(CatchClauseSyntax c)
    {
        var type = c.Declaration?.Type.ToString();
        if (type is not null && type is not ("Exception" or "System.Exception"))
        {
            return true;
        }
        if (c.Filter is not null)
        {
            return true;
        }
        var variable = c.Declaration?.Identifier.ValueText;
        return !string.IsNullOrEmpty(variable) && c.Block.DescendantNodes().OfType<IdentifierNameSyntax>()
            .Any(i => i.Identifier.ValueText == variable && (i.Parent is not MemberAccessExpressionSyntax ma || ShapeWords.Contains(ma.Name.Identifier.ValueText))
                && i.Parent is not ThrowStatementSyntax && i.Parent is not ArgumentSyntax)
            || c.Block.DescendantNodes().OfType<IdentifierNameSyntax>().Any(i => i.Identifier.ValueText == "AggregateException");
    }

    /// <summary>
    /// <c>t.Result</c> → <c>await t.ContinueWith(done => done.Result, TaskScheduler.Default)</c> (<c>.Wait()</c> alike): the
    /// continuation reads the finished task, so it throws the very AggregateException the wait threw, and the awaits up
    /// the chain rethrow that exception object as it is. Null when the site is not a Task's Result or Wait().
    /// </summary>
    public static SiteEdit? KeepAggregate(SyntaxNode site, bool configureAwait, string where)
    {
        if (Receiver(site) is null)
        {
            return null;
        }
        var read = site is MemberAccessExpressionSyntax ? "Result" : "Wait()";
        return new SiteEdit(site, n =>
        {
            var task = Receiver(n)!;
            var continued = SyntaxFactory.ParseExpression($"{task.WithoutTrivia()}.ContinueWith(done => done.{read}, TaskScheduler.Default)");
            return AsyncSyntax.Await(continued, site, configureAwait);
        }, ["System.Threading.Tasks"], $".{read} → await ….ContinueWith(done => done.{read}) ({FixReasons.ExceptionShape.Say($"{where} reads the AggregateException; the continuation rethrows it as the wait did")})");
    }

    private static ExpressionSyntax? Receiver(SyntaxNode site) => site switch
    {
        MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Result" } r => r.Expression,
        InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Wait" } w, ArgumentList.Arguments.Count: 0 } => w.Expression,
        _ => null,
    };

    private static bool IsTask(ITypeSymbol? type) =>
        type is INamedTypeSymbol t && t.OriginalDefinition.ToDisplayString() is "System.Threading.Tasks.Task" or "System.Threading.Tasks.Task<TResult>";
}
