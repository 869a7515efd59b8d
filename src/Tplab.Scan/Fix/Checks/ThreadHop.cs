using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Tplab.Scan.Fix.Checks;

/// <summary>
/// What <c>await Task.Run(() =&gt; XAsync())</c> → <c>await XAsync()</c> moves from a pool thread Task.Run picked to the
/// caller's: the lambda and the called method's synchronous prefix run there. Where either reads its thread
/// ([ThreadStatic], ThreadLocal, the current thread or its id), the hop stays (TPFIX005).
/// </summary>
internal static class ThreadHop
{
    /// <summary>Why the hop must stay, or null when nothing the lambda runs reads the thread it starts on.</summary>
    /// <param name="lambda">The lambda given to Task.Run.</param>
    /// <param name="called">The method the lambda calls, when the solution declares it: its code before its first await moves to the caller's thread.</param>
    public static string? Refusal(SemanticModel model, SyntaxNode lambda, IMethodSymbol? called, CancellationToken cancellationToken)
    {
        if (FirstRead(model, lambda, cancellationToken) is { } inLambda)
        {
            return Say($"the lambda reads {inLambda.What} (line {ThreadAffinity.Line(inLambda.Name)})");
        }
        foreach (var declaration in called?.DeclaringSyntaxReferences.Select(r => r.GetSyntax(cancellationToken)) ?? [])
        {
            if (model.Compilation.ContainsSyntaxTree(declaration.SyntaxTree)
                && FirstRead(model.Compilation.GetSemanticModel(declaration.SyntaxTree), declaration, cancellationToken) is { } inCalled)
            {
                return Say($"{called!.Name} reads {inCalled.What} (line {ThreadAffinity.Line(inCalled.Name)})");
            }
        }
        return null;
    }

    private static string Say(string what) => FixReasons.ThreadHop.Say(
        $"{what}: under Task.Run that is a pool thread's, called directly the request thread's until its first await; the Task.Run is kept");

    private static (SimpleNameSyntax Name, string What)? FirstRead(SemanticModel model, SyntaxNode scope, CancellationToken cancellationToken) =>
        scope.DescendantNodesAndSelf().OfType<SimpleNameSyntax>()
            .Select(n => (Name: n, What: ThreadIdentity.ThreadBoundRead(model, n, cancellationToken)))
            .Where(r => r.What is not null).Select(r => ((SimpleNameSyntax, string)?)(r.Name, r.What!)).FirstOrDefault();
}
