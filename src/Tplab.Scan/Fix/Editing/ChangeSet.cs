using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

namespace Tplab.Scan.Fix.Editing;

/// <summary>What happens to a method, local function or lambda that the fix makes asynchronous.</summary>
internal sealed class ContainerChange
{
    /// <summary>It will hold an await: it becomes <c>async</c>. Otherwise (an implementation beside the one that blocked) it returns <c>Task.FromResult</c>.</summary>
    public bool Awaits { get; set; }

    /// <summary><c>T</c> → <c>Task&lt;T&gt;</c> (its signature changes; callers are updated).</summary>
    public bool ChangesReturnType { get; init; }

    /// <summary>It returned a task without being async: its returns become awaits.</summary>
    public bool AwaitsReturns { get; init; }

    /// <summary>Whether the task it returned has a result (<c>Task&lt;T&gt;</c>).</summary>
    public bool HasResult { get; init; }

    public string? NewName { get; init; }

    public string Task { get; init; } = "Task";

    public bool EndReachable { get; init; }

    /// <summary><c>--add-cancellation</c>: the token parameter's type as the file names it, added last (without a default on an explicit interface implementation).</summary>
    public string? AddToken { get; init; }

    /// <summary>
    /// <c>Task.Run</c>'s lambda: where its one expression becomes <c>await e</c>, it returns <c>e</c> instead of
    /// becoming <c>async</c> (<c>Task.Run(() =&gt; XAsync())</c>: Task.Run unwraps the task as it did the async lambda's).
    /// </summary>
    public bool ReturnsTheTask { get; init; }
}

/// <summary>
/// The edits of one fix, keyed by the nodes of the solution they were planned on, applied per document with a
/// <see cref="SyntaxEditor"/> innermost first so that an outer edit (a method made async) sees the inner ones (the awaits).
/// </summary>
internal sealed class ChangeSet
{
    private readonly Dictionary<SyntaxNode, Func<SyntaxNode, SyntaxNode>> _expressions = [];
    private readonly Dictionary<SyntaxNode, string> _renames = [];
    private readonly Dictionary<SyntaxTree, HashSet<string>> _usings = [];
    private readonly Dictionary<SyntaxTree, bool> _configureAwait = [];

    public Dictionary<SyntaxNode, ContainerChange> Containers { get; } = [];

    public int MethodCount => Containers.Count;

    public void Replace(SyntaxNode node, Func<SyntaxNode, SyntaxNode> replace) => _expressions[node] = replace;

    public bool IsReplaced(SyntaxNode node) => _expressions.ContainsKey(node);

    public void Rename(SyntaxNode name, string newName) => _renames[name] = newName;

    public void Using(SyntaxTree tree, string ns)
    {
        if (!_usings.TryGetValue(tree, out var set))
        {
            _usings[tree] = set = new HashSet<string>(StringComparer.Ordinal);
        }
        set.Add(ns);
    }

    /// <summary>Whether the file already uses <c>ConfigureAwait(false)</c>: the new awaits follow it.</summary>
    public bool ConfigureAwait(SyntaxTree tree)
    {
        if (!_configureAwait.TryGetValue(tree, out var uses))
        {
            _configureAwait[tree] = uses = tree.GetText().ToString().Contains(".ConfigureAwait(false)", StringComparison.Ordinal);
        }
        return uses;
    }

    /// <summary>The solution with every edit applied.</summary>
    public async Task<Solution> ApplyAsync(Solution solution, CancellationToken cancellationToken)
    {
        var trees = _expressions.Keys.Concat(_renames.Keys).Concat(Containers.Keys).Select(n => n.SyntaxTree).Concat(_usings.Keys).Distinct().ToList();
        foreach (var tree in trees)
        {
            var document = solution.GetDocument(tree) ?? throw new InvalidOperationException("a planned edit is outside the solution");
            var editor = await DocumentEditor.CreateAsync(document, cancellationToken).ConfigureAwait(false);
            var edits = new List<(SyntaxNode Node, Func<SyntaxNode, SyntaxNode> Replace)>();
            edits.AddRange(_renames.Where(r => r.Key.SyntaxTree == tree).Select(r => (r.Key, (Func<SyntaxNode, SyntaxNode>)(n => RenameName(n, r.Value)))));
            edits.AddRange(_expressions.Where(e => e.Key.SyntaxTree == tree).Select(e => (e.Key, e.Value)));
            edits.AddRange(Containers.Where(c => c.Key.SyntaxTree == tree).Select(c => (c.Key, (Func<SyntaxNode, SyntaxNode>)(n => Container(n, c.Value, ConfigureAwait(tree), AsyncSyntax.Newline(tree.GetRoot()))))));
            foreach (var (node, replace) in edits.OrderBy(e => e.Node.Span.Length).ThenByDescending(e => e.Node.SpanStart))
            {
                editor.ReplaceNode(node, (current, _) => replace(current));
            }
            var root = editor.GetChangedRoot();
            if (_usings.TryGetValue(tree, out var usings) && root is CompilationUnitSyntax unit)
            {
                foreach (var ns in usings.Order(StringComparer.Ordinal))
                {
                    unit = AsyncSyntax.AddUsing(unit, ns);
                }
                root = unit;
            }
            solution = solution.WithDocumentSyntaxRoot(document.Id, root);
        }
        return solution;
    }

    private static SyntaxNode RenameName(SyntaxNode node, string name) => node switch
    {
        GenericNameSyntax g => g.WithIdentifier(Identifier(name).WithTriviaFrom(g.Identifier)),
        IdentifierNameSyntax i => i.WithIdentifier(Identifier(name).WithTriviaFrom(i.Identifier)),
        _ => node,
    };

    private static SyntaxNode Container(SyntaxNode node, ContainerChange change, bool configureAwait, string newline)
    {
        switch (node)
        {
            case MethodDeclarationSyntax m:
            {
                if (change.NewName is { } name)
                {
                    m = m.WithIdentifier(Identifier(name).WithTriviaFrom(m.Identifier));
                }
                if (change.AddToken is { } tokenType)
                {
                    m = m.WithParameterList(AsyncSyntax.AddToken(m.ParameterList, tokenType, FixContext.TokenParameter, withDefault: m.ExplicitInterfaceSpecifier is null));
                }
                if (change.AwaitsReturns)
                {
                    m = (MethodDeclarationSyntax)TaskReturns.AwaitReturns(m, change.HasResult, configureAwait, change.Task);
                }
                if (!change.ChangesReturnType)
                {
                    return change.AwaitsReturns || change.Awaits ? WithAsync(m) : m;
                }
                if (m.Body is null && m.ExpressionBody is null)
                {
                    return m.WithReturnType(AsyncSyntax.TaskOf(m.ReturnType, change.Task));
                }
                if (!change.Awaits && TaskReturns.FromResult(m, m.Body, m.ExpressionBody, m.ReturnType.WithoutTrivia().ToString(), change.Task, change.EndReachable, newline) is MethodDeclarationSyntax plain)
                {
                    return plain.WithReturnType(AsyncSyntax.TaskOf(plain.ReturnType, change.Task));
                }
                return WithAsync(m.WithReturnType(AsyncSyntax.TaskOf(m.ReturnType, change.Task)));
            }
            case LocalFunctionStatementSyntax l:
            {
                if (change.NewName is { } name)
                {
                    l = l.WithIdentifier(Identifier(name).WithTriviaFrom(l.Identifier));
                }
                if (change.AwaitsReturns)
                {
                    l = (LocalFunctionStatementSyntax)TaskReturns.AwaitReturns(l, change.HasResult, configureAwait, change.Task);
                }
                if (change.ChangesReturnType)
                {
                    l = l.WithReturnType(AsyncSyntax.TaskOf(l.ReturnType, change.Task));
                }
                var (modifiers, returnType) = AsyncSyntax.AddAsync(l.Modifiers, l.ReturnType);
                return l.WithModifiers(modifiers).WithReturnType(returnType);
            }
            case AnonymousFunctionExpressionSyntax lambda:
            {
                if (change.ReturnsTheTask && Returned(lambda) is { } awaited)
                {
                    return lambda.ReplaceNode(awaited, Unawaited(awaited).WithTriviaFrom(awaited));
                }
                if (change.AwaitsReturns)
                {
                    lambda = (AnonymousFunctionExpressionSyntax)TaskReturns.AwaitReturns(lambda, change.HasResult, configureAwait, change.Task);
                }
                var lead = lambda.GetLeadingTrivia();
                return lambda.WithoutLeadingTrivia().WithAsyncKeyword(Token(SyntaxKind.AsyncKeyword).WithTrailingTrivia(Space)).WithLeadingTrivia(lead);
            }
            default:
                return node;
        }
    }

    // The await a lambda's one expression is: its expression body, or its block's single return.
    private static AwaitExpressionSyntax? Returned(AnonymousFunctionExpressionSyntax lambda) => lambda switch
    {
        { ExpressionBody: AwaitExpressionSyntax body } => body,
        { Block.Statements: [ReturnStatementSyntax { Expression: AwaitExpressionSyntax returned }] } => returned,
        _ => null,
    };

    // await e (or await e.ConfigureAwait(false)) → e, the task itself.
    private static ExpressionSyntax Unawaited(AwaitExpressionSyntax awaited) =>
        awaited.Expression is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ConfigureAwait" } configured }
            ? configured.Expression.WithoutTrivia()
            : awaited.Expression.WithoutTrivia();

    private static MethodDeclarationSyntax WithAsync(MethodDeclarationSyntax m)
    {
        if (m.Modifiers.Any(SyntaxKind.AsyncKeyword))
        {
            return m;
        }
        var (modifiers, returnType) = AsyncSyntax.AddAsync(m.Modifiers, m.ReturnType);
        return m.WithModifiers(modifiers).WithReturnType(returnType);
    }
}
