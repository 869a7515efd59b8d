using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix.Editing;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace Tplab.Scan.Fix.Propagation;

/// <summary>
/// A <c>lock</c> that must hold an await, or that request threads queue on, becomes a <c>SemaphoreSlim(1, 1)</c>:
/// <c>await gate.WaitAsync()</c>, then the body in <c>try</c>, <c>gate.Release()</c> in <c>finally</c>. Only where
/// every use can change with it: the lock object is a private field of its type, declared alone and created empty
/// (<c>new()</c>, <c>new object()</c>, <c>new Lock()</c>), used in <c>lock</c> statements and nowhere else, never
/// re-entered (a semaphore is not re-entrant, a lock is: <see cref="SemaphoreGate"/>), and each method that takes it can await (asked of
/// <paramref name="requireAwait"/>, which makes it async).
/// </summary>
internal sealed class LockToSemaphore(FixContext context, Func<SyntaxNode, Task<string?>> requireAwait, List<string> reshaped)
{
    private readonly Dictionary<ISymbol, string?> _locks = new(SymbolEqualityComparer.Default);
    // Per block, the lock statements (by index) to splice, with the awaited wait planned for each.
    private readonly Dictionary<BlockSyntax, Dictionary<int, Func<string>>> _splices = [];

    /// <summary>The lock statements this fix turned into semaphores (their original nodes).</summary>
    public List<LockStatementSyntax> ConvertedLocks { get; } = [];

    /// <summary>Turns the lock of <paramref name="lockStatement"/> (all its uses) into a SemaphoreSlim; null when done, else why not.</summary>
    public async Task<string?> ConvertAsync(LockStatementSyntax lockStatement)
    {
        var model = await context.ModelAsync(lockStatement.SyntaxTree).ConfigureAwait(false);
        if (model.GetSymbolInfo(lockStatement.Expression, context.CancellationToken).Symbol is not IFieldSymbol field)
        {
            return $"the lock is taken on {lockStatement.Expression}, not on a field: tplab turns only a private lock object into a SemaphoreSlim";
        }
        if (_locks.TryGetValue(field, out var known))
        {
            return known;
        }
        _locks[field] = null; // re-entered through a lock nested in its own body: decided below
        var why = await ConvertFieldAsync(field).ConfigureAwait(false);
        _locks[field] = why;
        return why;
    }

    private async Task<string?> ConvertFieldAsync(IFieldSymbol field)
    {
        var name = $"{field.ContainingType.Name}.{field.Name}";
        if (field.DeclaredAccessibility != Accessibility.Private)
        {
            return $"the lock object {name} is not private to its type, so code tplab cannot see may lock it too";
        }
        if (field.Type.SpecialType != SpecialType.System_Object && field.Type.ToDisplayString() != "System.Threading.Lock")
        {
            return $"the lock is taken on {name}, a {field.Type.Name} that is also data: give the lock its own private object first";
        }
        if (field.DeclaringSyntaxReferences.Length != 1
            || await field.DeclaringSyntaxReferences[0].GetSyntaxAsync(context.CancellationToken).ConfigureAwait(false) is not VariableDeclaratorSyntax
            {
                Initializer.Value: BaseObjectCreationExpressionSyntax { ArgumentList.Arguments.Count: 0, Initializer: null },
                Parent: VariableDeclarationSyntax { Variables.Count: 1, Parent: FieldDeclarationSyntax declaration },
            })
        {
            return $"the lock object {name} is not declared alone as a new object (private readonly object {field.Name} = new();)";
        }
        var locks = new List<LockStatementSyntax>();
        foreach (var used in await SemaphoreGate.UsesAsync(context, field).ConfigureAwait(false))
        {
            if (used.Parent is not LockStatementSyntax l || l.Expression != used)
            {
                return $"the lock object {name} is used other than in a lock statement at {context.Where(used)}: a SemaphoreSlim would change what that use means";
            }
            if (l.Parent is not BlockSyntax)
            {
                return $"the lock at {context.Where(l)} is the body of another statement without braces: add the braces first";
            }
            locks.Add(l);
        }
        if (await SemaphoreGate.ReentryAsync(context, $"the lock on {name}", [.. locks.Select(l => new SemaphoreGate.Hold(l, l.Statement))]).ConfigureAwait(false) is { } reentry)
        {
            return reentry;
        }
        // Every method that takes the lock awaits the semaphore now: each must be able to become async.
        foreach (var l in locks)
        {
            if (await requireAwait(l).ConfigureAwait(false) is { } cannot)
            {
                return $"the lock on {name} is also taken at {context.Where(l)}, where it cannot be awaited: {cannot}";
            }
        }
        await SemaphoreGate.DeclareAsync(context, declaration).ConfigureAwait(false);
        foreach (var l in locks)
        {
            var block = (BlockSyntax)l.Parent!;
            if (!_splices.TryGetValue(block, out var planned))
            {
                _splices[block] = planned = [];
                var newline = AsyncSyntax.Newline(block.SyntaxTree.GetRoot(context.CancellationToken));
                context.Changes.Replace(block, n => Splice((BlockSyntax)n, planned, newline));
            }
            var model = await context.ModelAsync(l.SyntaxTree).ConfigureAwait(false);
            var configure = context.Changes.ConfigureAwait(l.SyntaxTree) ? ".ConfigureAwait(false)" : "";
            // Asked when the edit is applied: by then the method around it has the token --add-cancellation gives it.
            var lockStatement = l;
            planned[block.Statements.IndexOf(l)] = () => $"await {lockStatement.Expression.WithoutTrivia()}.WaitAsync({context.Token(model, lockStatement)}){configure};";
            ConvertedLocks.Add(l);
        }
        reshaped.Add($"lock ({field.Name}) → await {field.Name}.WaitAsync() … finally {field.Name}.Release(), {name} a SemaphoreSlim(1, 1) ({locks.Count} lock statement(s))");
        return null;
    }

    // Each lock statement at the given indices becomes two: the awaited wait, and the body in try/finally.
    private static BlockSyntax Splice(BlockSyntax block, Dictionary<int, Func<string>> waits, string newline)
    {
        var statements = new List<StatementSyntax>();
        for (var i = 0; i < block.Statements.Count; i++)
        {
            if (!waits.TryGetValue(i, out var wait) || block.Statements[i] is not LockStatementSyntax l)
            {
                statements.Add(block.Statements[i]);
                continue;
            }
            var indent = l.GetLeadingTrivia().LastOrDefault(t => t.IsKind(SyntaxKind.WhitespaceTrivia)).ToString();
            var body = l.Statement as BlockSyntax ?? Block(l.Statement);
            var unit = body.Statements.FirstOrDefault()?.GetLeadingTrivia().LastOrDefault(t => t.IsKind(SyntaxKind.WhitespaceTrivia)).ToString() is { } inner && inner.Length > indent.Length
                ? inner[indent.Length..] : "    ";
            var gate = l.Expression.WithoutTrivia().ToString();
            statements.Add(ParseStatement(wait()).WithLeadingTrivia(l.GetLeadingTrivia()).WithTrailingTrivia(EndOfLine(newline)));
            var release = ParseStatement($"{gate}.Release();").WithLeadingTrivia(Whitespace(indent + unit)).WithTrailingTrivia(EndOfLine(newline));
            var finallyBlock = Block(Token(SyntaxKind.OpenBraceToken).WithLeadingTrivia(Whitespace(indent)).WithTrailingTrivia(EndOfLine(newline)),
                SingletonList(release), Token(SyntaxKind.CloseBraceToken).WithLeadingTrivia(Whitespace(indent)).WithTrailingTrivia(l.GetTrailingTrivia()));
            statements.Add(TryStatement(
                Token(SyntaxKind.TryKeyword).WithLeadingTrivia(Whitespace(indent)).WithTrailingTrivia(EndOfLine(newline)),
                body.WithCloseBraceToken(body.CloseBraceToken.WithTrailingTrivia(EndOfLine(newline))),
                default,
                FinallyClause(Token(SyntaxKind.FinallyKeyword).WithLeadingTrivia(Whitespace(indent)).WithTrailingTrivia(EndOfLine(newline)), finallyBlock)));
        }
        return block.WithStatements(List(statements));
    }
}
