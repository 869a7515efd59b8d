using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Tplab.Scan.Fix.Editing;

namespace Tplab.Scan.Fix.Checks;

/// <summary>
/// TPFIX003: what belongs to a thread, read after a new await (the code there may run on another pool thread) —
/// <c>[ThreadStatic]</c> fields, <c>ThreadLocal&lt;T&gt;.Value</c>, <c>Thread.CurrentThread</c>, the managed thread
/// id — and what flows with the execution context, set in a method that becomes async: culture, principal and
/// <c>AsyncLocal&lt;T&gt;</c> set inside an async method no longer reach its caller once it returns.
/// </summary>
internal static class ThreadIdentity
{
    private static readonly HashSet<string> ThreadBound = new(StringComparer.Ordinal)
    {
        "System.Threading.Thread.CurrentThread",
        "System.Threading.Thread.ManagedThreadId",
        "System.Environment.CurrentManagedThreadId",
    };

    private static readonly HashSet<string> ContextSetters = new(StringComparer.Ordinal)
    {
        "System.Globalization.CultureInfo.CurrentCulture",
        "System.Globalization.CultureInfo.CurrentUICulture",
        "System.Threading.Thread.CurrentCulture",
        "System.Threading.Thread.CurrentUICulture",
        "System.Threading.Thread.CurrentPrincipal",
        "System.Threading.AsyncLocal<T>.Value",
    };

    /// <summary>Why an await at <paramref name="point"/> changes what the code after it reads of its thread; null when nothing is.</summary>
    public static string? ReadAfter(SemanticModel model, SyntaxNode point, SyntaxNode container, CancellationToken cancellationToken)
    {
        // Inside a loop, the next iteration runs after the await too.
        var from = point.Ancestors().TakeWhile(a => a != container).LastOrDefault(a => a is ForStatementSyntax or ForEachStatementSyntax or WhileStatementSyntax or DoStatementSyntax)?.SpanStart
            ?? point.Span.End;
        foreach (var name in container.DescendantNodes().OfType<SimpleNameSyntax>().Where(n => n.SpanStart >= from && !point.Span.Contains(n.Span)))
        {
            var what = ThreadBoundRead(model, name, cancellationToken);
            if (what is not null)
            {
                return FixReasons.ThreadIdentity.Say(
                    $"{what} is read after it (line {ThreadAffinity.Line(name)}), and after an await the code may run on another thread; keep the value in a local before the call, or leave this wait as it is");
            }
        }
        return null;
    }

    /// <summary>What of its thread <paramref name="name"/> reads ([ThreadStatic], ThreadLocal, the current thread, its id); null when nothing.</summary>
    public static string? ThreadBoundRead(SemanticModel model, SimpleNameSyntax name, CancellationToken cancellationToken) =>
        model.GetSymbolInfo(name, cancellationToken).Symbol switch
        {
            IFieldSymbol f when f.GetAttributes().Any(a => a.AttributeClass?.ToDisplayString() == "System.ThreadStaticAttribute") => $"the [ThreadStatic] field {f.Name}",
            IPropertySymbol { Name: "Value" } p when p.ContainingType.OriginalDefinition.ToDisplayString() == "System.Threading.ThreadLocal<T>" => "a ThreadLocal<T>'s Value",
            IPropertySymbol p when ThreadBound.Contains($"{p.ContainingType.ToDisplayString()}.{p.Name}") => $"{p.ContainingType.Name}.{p.Name}",
            _ => null,
        };

    /// <summary>Why <paramref name="container"/>, about to become async, cannot: it sets culture, principal or an AsyncLocal its caller would no longer see; else null.</summary>
    public static string? SetsContext(SemanticModel model, SyntaxNode container, CancellationToken cancellationToken)
    {
        if (container is not (MethodDeclarationSyntax or LocalFunctionStatementSyntax))
        {
            return null;
        }
        foreach (var assignment in container.DescendantNodes().OfType<AssignmentExpressionSyntax>().Where(a => a.IsKind(SyntaxKind.SimpleAssignmentExpression) && AsyncSyntax.DirectlyIn(a, container)))
        {
            if (model.GetSymbolInfo(assignment.Left, cancellationToken).Symbol is IPropertySymbol p
                && ContextSetters.Contains($"{p.ContainingType.OriginalDefinition.ToDisplayString()}.{p.Name}"))
            {
                return FixReasons.ThreadIdentity.Say(
                    $"it sets {p.ContainingType.Name}.{p.Name} (line {ThreadAffinity.Line(assignment)}): set inside an async method it no longer reaches the caller once the method returns; set it in the caller, or leave this wait as it is");
            }
        }
        return null;
    }
}
