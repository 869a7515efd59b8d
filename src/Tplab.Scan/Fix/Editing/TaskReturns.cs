using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace Tplab.Scan.Fix.Editing;

/// <summary>
/// The returns of a method, local function or lambda that becomes task-returning, written as a reviewer would: a
/// method that returned a task and now awaits returns what it meant (<c>return Task.CompletedTask;</c> →
/// <c>return;</c>, <c>return Task.FromResult(x);</c> → <c>return x;</c>), and one that awaits nothing returns a
/// completed task.
/// </summary>
internal static class TaskReturns
{
    private static readonly SyntaxAnnotation Spread = new("tplab-spread");
    private static readonly SyntaxAnnotation Redundant = new("tplab-redundant");

    /// <summary>
    /// In a method that returned a task without being async and now becomes async: <c>return e;</c> →
    /// <c>return await e;</c> (a <c>Task&lt;T&gt;</c>) or <c>await e; return;</c> (a <c>Task</c>), the <c>return;</c>
    /// left out at the end of the body; an expression body <c>=&gt; e</c> → <c>=&gt; await e</c>. A completed task is
    /// not awaited but returned as what it holds (<c>Task.CompletedTask</c>, <c>Task.FromResult(x)</c>,
    /// <c>ValueTask.FromResult(x)</c>, <c>new ValueTask&lt;T&gt;(x)</c>: the same value, at the same moment). In a
    /// lambda, whose return type C# infers, only a <c>FromResult</c> without a type argument (the value has the
    /// type the task had).
    /// </summary>
    public static SyntaxNode AwaitReturns(SyntaxNode declaration, bool hasResult, bool configureAwait, string task)
    {
        var typed = declaration is not AnonymousFunctionExpressionSyntax;
        var returns = declaration.DescendantNodes().OfType<ReturnStatementSyntax>().Where(r => r.Expression is not null && AsyncSyntax.DirectlyIn(r, declaration)).ToList();
        var arrows = declaration.ChildNodes().OfType<ArrowExpressionClauseSyntax>().ToList();
        var lambdaBody = declaration is AnonymousFunctionExpressionSyntax { ExpressionBody: { } eb } ? eb : null;
        var targets = returns.Cast<SyntaxNode>().Concat(arrows.Select(a => a.Expression)).Concat(lambdaBody is null ? [] : [lambdaBody]).ToList();
        var result = declaration.ReplaceNodes(targets, (original, current) =>
        {
            if (current is ReturnStatementSyntax r)
            {
                var completed = IsCompleted(r.Expression!, task, typed, out var value);
                var last = original.Parent is BlockSyntax block && block.Statements.Last() == original && block.Parent == declaration;
                if (hasResult)
                {
                    return r.WithExpression(value?.WithTriviaFrom(r.Expression!) ?? AsyncSyntax.Await(r.Expression!, r.Expression!, configureAwait));
                }
                if (completed && value is null)
                {
                    // return Task.CompletedTask; → return; (left out at the end of the body, unless a comment is on it)
                    var plain = r.WithExpression(null).WithReturnKeyword(r.ReturnKeyword.WithTrailingTrivia());
                    return last && r.GetLeadingTrivia().All(t => t.IsKind(SyntaxKind.WhitespaceTrivia) || t.IsKind(SyntaxKind.EndOfLineTrivia)) ? plain.WithAdditionalAnnotations(Redundant) : plain;
                }
                var awaited = AsyncSyntax.Await(r.Expression!, r.Expression!, configureAwait);
                // return e; in a Task method → await e; return; (the return kept: it may leave a loop or a branch)
                if (last)
                {
                    return ExpressionStatement(awaited.WithoutTrivia()).WithTriviaFrom(r);
                }
                return SyntaxFactory.Block(ExpressionStatement(awaited.WithoutTrivia().WithLeadingTrivia(Space)), ReturnStatement().WithLeadingTrivia(Space).WithTrailingTrivia(Space))
                    .WithOpenBraceToken(Token(SyntaxKind.OpenBraceToken)).WithTriviaFrom(r).WithAdditionalAnnotations(Spread);
            }
            var expression = (ExpressionSyntax)current;
            return hasResult && IsCompleted(expression, task, typed, out var held) && held is not null
                ? held.WithTriviaFrom(expression)
                : AsyncSyntax.Await(expression, (ExpressionSyntax)original, configureAwait);
        });
        return SpreadBlocks(result.RemoveNodes(result.GetAnnotatedNodes(Redundant), SyntaxRemoveOptions.KeepNoTrivia)!);
    }

    /// <summary>
    /// A method that becomes task-returning but awaits nothing (an implementation beside the one that blocked):
    /// <c>return e;</c> → <c>return Task.FromResult(e);</c> (<c>FromResult&lt;T&gt;</c> unless <c>e</c> plainly has the
    /// type <c>T</c>: a <c>new T(…)</c>, or a literal whose own type is <c>T</c>), <c>return;</c> → <c>return Task.CompletedTask;</c> and one
    /// at the end when the end is reachable; null when its shape is not one of these.
    /// </summary>
    public static SyntaxNode? FromResult(SyntaxNode declaration, BlockSyntax? body, ArrowExpressionClauseSyntax? arrow, string resultType, string task, bool endReachable, string newline)
    {
        var isVoid = resultType == "void";
        if (arrow is not null)
        {
            return isVoid ? null : declaration.ReplaceNode(arrow.Expression, ParseExpression(FromResultOf(arrow.Expression, resultType, task)).WithTriviaFrom(arrow.Expression));
        }
        if (body is null)
        {
            return null;
        }
        var returns = body.DescendantNodes().OfType<ReturnStatementSyntax>().Where(r => AsyncSyntax.DirectlyIn(r, body)).ToList();
        var newBody = body.ReplaceNodes(returns, (_, r) => r.Expression is null
            ? r.WithExpression(ParseExpression($"{task}.CompletedTask").WithLeadingTrivia(Space)).WithReturnKeyword(r.ReturnKeyword.WithTrailingTrivia())
            : r.WithExpression(ParseExpression(FromResultOf(r.Expression, resultType, task)).WithTriviaFrom(r.Expression)));
        if (isVoid && endReachable)
        {
            var indent = body.Statements.Count > 0 ? body.Statements[0].GetLeadingTrivia() : TriviaList(body.OpenBraceToken.LeadingTrivia.Where(t => t.IsKind(SyntaxKind.WhitespaceTrivia)).Append(Whitespace("    ")));
            var final = ParseStatement($"return {task}.CompletedTask;").WithLeadingTrivia(indent.Where(t => t.IsKind(SyntaxKind.WhitespaceTrivia))).WithTrailingTrivia(EndOfLine(newline));
            newBody = newBody.WithStatements(newBody.Statements.Add(final));
        }
        return declaration.ReplaceNode(body, newBody);
    }

    // A literal's own type by the keyword that names it: "cached" is a string, 2m a decimal, 2 an int.
    private static readonly Dictionary<string, Type> Keywords = new(StringComparer.Ordinal)
    {
        ["string"] = typeof(string), ["bool"] = typeof(bool), ["char"] = typeof(char), ["int"] = typeof(int), ["long"] = typeof(long),
        ["double"] = typeof(double), ["float"] = typeof(float), ["decimal"] = typeof(decimal),
    };

    private static string FromResultOf(ExpressionSyntax value, string resultType, string task)
    {
        var plainlyTyped = value switch
        {
            ObjectCreationExpressionSyntax created => created.Type.ToString() == resultType,
            LiteralExpressionSyntax { Token.Value: { } constant } => Keywords.TryGetValue(resultType, out var type) && constant.GetType() == type,
            _ => false,
        };
        return plainlyTyped ? $"{task}.FromResult({value.WithoutTrivia()})" : $"{task}.FromResult<{resultType}>({value.WithoutTrivia()})";
    }

    // Whether e is a completed task written out (Task.CompletedTask, Task.FromResult(x), ValueTask.FromResult(x),
    // new ValueTask<T>(x)), and the value it holds (null for CompletedTask).
    private static bool IsCompleted(ExpressionSyntax e, string task, bool typed, out ExpressionSyntax? value)
    {
        var valueTask = task.EndsWith("Task", StringComparison.Ordinal) ? task.Remove(task.Length - 4) + "ValueTask" : "ValueTask";
        bool IsTaskType(ExpressionSyntax t) => t.ToString() is var name && (name == task || name == valueTask);
        value = null;
        switch (e)
        {
            case MemberAccessExpressionSyntax { Name.Identifier.ValueText: "CompletedTask" } m when IsTaskType(m.Expression):
                return true;
            case InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name: var name } m, ArgumentList.Arguments: [{ NameColon: null, RefKindKeyword.RawKind: 0 } only] }
                when IsTaskType(m.Expression) && name.Identifier.ValueText == "FromResult" && (typed || name is IdentifierNameSyntax):
                value = only.Expression;
                return true;
            case ObjectCreationExpressionSyntax { Type: GenericNameSyntax { Identifier.ValueText: "ValueTask" }, ArgumentList.Arguments: [{ NameColon: null, RefKindKeyword.RawKind: 0 } only] }
                when typed && valueTask == "ValueTask":
                value = only.Expression;
                return true;
            default:
                return false;
        }
    }

    // { await e; return; } as a statement of a block or a switch section: the two statements in its place, on their own lines.
    private static SyntaxNode SpreadBlocks(SyntaxNode declaration)
    {
        while (declaration.GetAnnotatedNodes(Spread).OfType<BlockSyntax>().FirstOrDefault(b => b.Parent is BlockSyntax or SwitchSectionSyntax
            && b.GetTrailingTrivia().Any(t => t.IsKind(SyntaxKind.EndOfLineTrivia))) is { Statements: [var awaited, var ret] } block)
        {
            var lead = block.GetLeadingTrivia();
            var indent = lead.Reverse().TakeWhile(t => t.IsKind(SyntaxKind.WhitespaceTrivia)).Reverse();
            var newline = block.GetTrailingTrivia().First(t => t.IsKind(SyntaxKind.EndOfLineTrivia));
            declaration = declaration.ReplaceNode(block, new SyntaxNode[]
            {
                awaited.WithLeadingTrivia(lead).WithTrailingTrivia(newline),
                ret.WithLeadingTrivia(indent).WithTrailingTrivia(block.GetTrailingTrivia()),
            });
        }
        return declaration;
    }
}
