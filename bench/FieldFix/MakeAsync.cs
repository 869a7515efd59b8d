using System.Reflection;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using static Microsoft.CodeAnalysis.CSharp.SyntaxFactory;

/// <summary>
/// Roslyn's own "Make method async" (<c>CSharpMakeMethodAsynchronousCodeFixProvider</c>, Microsoft.CodeAnalysis.CSharp.Features)
/// as a user reaches it: at each blocking site the user types the await by hand (<c>t.Result</c>, <c>t.Wait()</c>,
/// <c>t.GetAwaiter().GetResult()</c> → <c>await t</c>; <c>Thread.Sleep(x)</c> → <c>await Task.Delay(x)</c>; <c>x.M(…)</c> →
/// <c>await x.MAsync(…)</c>), the compiler says CS4032/CS4033/CS4034 (await outside an async method or lambda), and the
/// light bulb's first "Make … async" action is applied, one diagnostic at a time, until none is left that it changes.
/// Callers are left as the fix leaves them (dotnet/roslyn#49764): the build says whether they still compile.
/// </summary>
internal static class MakeAsync
{
    private static readonly string[] AwaitOutsideAsync = ["CS4032", "CS4033", "CS4034"];

    public static async Task<int> RunAsync(Project project, string sitesFile)
    {
        var original = project.Solution;
        var solution = original;
        var folder = Path.GetDirectoryName(project.FilePath)!;
        var provider = (CodeFixProvider)Activator.CreateInstance(Assembly.Load("Microsoft.CodeAnalysis.CSharp.Features")
            .GetType("Microsoft.CodeAnalysis.CSharp.MakeMethodAsynchronous.CSharpMakeMethodAsynchronousCodeFixProvider", throwOnError: true)!)!;
        // The user's hand edit at each site, all sites of a file at once.
        int typed = 0, skipped = 0;
        foreach (var byFile in File.ReadAllLines(sitesFile).Select(l => l.Split('\t')).Where(c => c.Length >= 4).GroupBy(c => c[0], StringComparer.Ordinal))
        {
            var path = Path.GetFullPath(Path.Combine(folder, byFile.Key));
            var document = solution.GetProject(project.Id)!.Documents.FirstOrDefault(d => d.FilePath == path);
            if (document is null)
            {
                skipped += byFile.Count();
                continue;
            }
            var root = (await document.GetSyntaxRootAsync())!;
            var text = await document.GetTextAsync();
            var nodes = new Dictionary<SyntaxNode, ExpressionSyntax>();
            foreach (var site in byFile)
            {
                var position = text.Lines[int.Parse(site[1]) - 1].Start + int.Parse(site[2]) - 1;
                if (Typed(root.FindToken(position).Parent, site[3]) is { } edit && !nodes.ContainsKey(edit.Node))
                {
                    nodes[edit.Node] = edit.Await;
                    typed++;
                }
                else
                {
                    skipped++;
                    Console.WriteLine($"not typed by hand  {site[0]}:{site[1]} {site[3]}");
                }
            }
            solution = solution.WithDocumentSyntaxRoot(document.Id, root.ReplaceNodes(nodes.Keys, (n, _) => nodes[n].WithTriviaFrom(n)));
        }
        Console.WriteLine($"awaits typed by hand: {typed}; sites left as they were: {skipped}");
        var tried = new HashSet<string>(StringComparer.Ordinal);
        int applied = 0, none = 0;
        for (var round = 0; round < 1000; round++)
        {
            var compilation = (await solution.GetProject(project.Id)!.GetCompilationAsync())!;
            var next = compilation.GetDiagnostics().Where(d => AwaitOutsideAsync.Contains(d.Id) && d.Location.IsInSource)
                .OrderBy(d => d.Location.SourceTree!.FilePath, StringComparer.Ordinal).ThenBy(d => d.Location.SourceSpan.Start)
                .FirstOrDefault(d => tried.Add($"{d.Id}|{d.Location.SourceTree!.FilePath}|{d.Location.SourceSpan.Start}"));
            if (next is null)
            {
                break;
            }
            var document = solution.GetDocument(next.Location.SourceTree)!;
            var actions = new List<CodeAction>();
            await provider.RegisterCodeFixesAsync(new CodeFixContext(document, next, (a, _) => actions.Add(a), CancellationToken.None));
            var action = actions.SelectMany(a => a.NestedActions.IsEmpty ? [a] : a.NestedActions).FirstOrDefault();
            var change = action is null ? null : (await action.GetOperationsAsync(CancellationToken.None)).OfType<ApplyChangesOperation>().FirstOrDefault();
            var where = $"{Path.GetFileName(next.Location.SourceTree!.FilePath)}:{next.Location.GetLineSpan().StartLinePosition.Line + 1}";
            if (change is null)
            {
                none++;
                Console.WriteLine($"no fix  {next.Id} {where}");
                continue;
            }
            solution = change.ChangedSolution;
            applied++;
            tried.Clear(); // positions moved: every remaining diagnostic is new to the next round
            Console.WriteLine($"applied {next.Id} {where}: {action!.Title}");
        }
        foreach (var id in solution.GetChanges(original).GetProjectChanges().SelectMany(p => p.GetChangedDocuments()))
        {
            var document = solution.GetDocument(id)!;
            await File.WriteAllTextAsync(document.FilePath!, (await document.GetTextAsync()).ToString(), new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
        }
        Console.WriteLine($"Make method async applied: {applied}; diagnostics it did not change: {none}");
        return 0;
    }

    // The await a user types at the site: the node replaced and its awaited form.
    private static (SyntaxNode Node, ExpressionSyntax Await)? Typed(SyntaxNode? at, string call)
    {
        for (var n = at; n is not null && n is not StatementSyntax and not MemberDeclarationSyntax; n = n.Parent)
        {
            switch (n)
            {
                case MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Result" } r when call.EndsWith("Result", StringComparison.Ordinal):
                    return (r, Wrap(r, r.Expression));
                case InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Wait" } w, ArgumentList.Arguments.Count: 0 } i:
                    return (i, Wrap(i, w.Expression));
                case InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "GetResult", Expression: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "GetAwaiter" } g } } } i:
                    return (i, Wrap(i, g.Expression));
                case InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Sleep" } } i when call == "Thread.Sleep":
                    return (i, Wrap(i, ParseExpression($"System.Threading.Tasks.Task.Delay({i.ArgumentList.Arguments})")));
                case InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax m } i when call.EndsWith("." + m.Name.Identifier.ValueText, StringComparison.Ordinal):
                    return (i, Wrap(i, i.WithExpression(m.WithName(IdentifierName(m.Name.Identifier.ValueText + "Async")))));
            }
        }
        return null;
    }

    private static ExpressionSyntax Wrap(SyntaxNode site, ExpressionSyntax awaited)
    {
        var expression = AwaitExpression(awaited.WithoutTrivia());
        return site.Parent is ExpressionStatementSyntax or EqualsValueClauseSyntax or ArgumentSyntax or ReturnStatementSyntax or ArrowExpressionClauseSyntax
            ? expression : ParenthesizedExpression(expression);
    }
}
