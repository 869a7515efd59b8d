using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace Tplab.Scan.Rules;

/// <summary>
/// A synchronous read of <c>Request.Body</c> that reads a buffer, not the connection: buffering was enabled for the
/// request (<c>EnableBuffering()</c> earlier in the same method or in a caller's, or in a middleware every request
/// passes) and the body was already read whole (MVC's <c>[FromBody]</c> binding, an awaited <c>ReadFormAsync</c>,
/// <c>ReadFromJsonAsync</c> or read to the end). <c>FileBufferingReadStream</c> holds the body in memory up to its
/// threshold (30 KB for <c>EnableBuffering()</c>) and in a temporary file past it: a read of what was just written to
/// local disk, not a wait for the client.
/// </summary>
internal static class BufferedBodies
{
    private static readonly ConditionalWeakTable<Compilation, StrongBox<bool>> PipelineBuffers = new();

    private static readonly HashSet<string> WholeReads = new(StringComparer.Ordinal)
    {
        "ReadToEndAsync", "ReadFormAsync", "ReadFromJsonAsync", "CopyToAsync", "DeserializeAsync",
    };

    public static bool IsBufferRead(IOperation at, IOperation body, IArgumentSource? callers) =>
        Buffered(at, body, callers, 0) && ReadBefore(at, body, callers, 0);

    private static bool Buffered(IOperation at, IOperation body, IArgumentSource? callers, int depth) =>
        Before(at, body).Any(i => i.TargetMethod.Name == "EnableBuffering" && Ops.NameOf(i.TargetMethod.ContainingType).StartsWith("Microsoft.AspNetCore.", StringComparison.Ordinal))
        || (at.SemanticModel is { } model && InPipeline(model.Compilation))
        || AllCallers(at, callers, depth, (call, callerBody) => Buffered(call, callerBody, callers, depth + 1));

    private static bool ReadBefore(IOperation at, IOperation body, IArgumentSource? callers, int depth) =>
        Before(at, body).Any(i => WholeReads.Contains(i.TargetMethod.Name) && i.Parent is IAwaitOperation or IInvocationOperation { TargetMethod.Name: "ConfigureAwait" }
            && ReadsRequest(i, body, callers))
        || BindsBody(Method(at))
        || AllCallers(at, callers, depth, (call, callerBody) => ReadBefore(call, callerBody, callers, depth + 1));

    // await request.ReadFormAsync(), await reader.ReadToEndAsync() over Request.Body, await JsonSerializer.DeserializeAsync(Request.Body).
    private static bool ReadsRequest(IInvocationOperation read, IOperation body, IArgumentSource? callers) =>
        Ops.IsOrDerives(Ops.Unwrap(Ops.Receiver(read))?.Type, "Microsoft.AspNetCore.Http.HttpRequest")
        || StreamOrigins.Classify(Ops.Receiver(read), body, callers) == StreamOrigin.RequestBody
        || read.Arguments.Any(a => StreamOrigins.Classify(a.Value, body, callers) == StreamOrigin.RequestBody);

    private static IEnumerable<IInvocationOperation> Before(IOperation at, IOperation body) =>
        body.DescendantsAndSelf().OfType<IInvocationOperation>().Where(i => i.Syntax.SpanStart < at.Syntax.SpanStart);

    // A helper's read holds for every call of it: each caller, before its call, must show the same.
    private static bool AllCallers(IOperation at, IArgumentSource? callers, int depth, Func<IOperation, IOperation, bool> holds)
    {
        if (callers is null || depth > 1 || Method(at) is not { Parameters.Length: > 0 } method)
        {
            return false;
        }
        var calls = callers.ArgumentsFor(method.Parameters[0]).Take(20).ToList();
        return calls.Count > 0 && calls.All(c => holds(c.Value, c.Body));
    }

    private static IMethodSymbol? Method(IOperation at) =>
        at.SemanticModel?.GetEnclosingSymbol(at.Syntax.SpanStart) is IMethodSymbol { MethodKind: not MethodKind.AnonymousFunction } m ? m : null;

    // An MVC action whose body model binding reads before it runs: a [FromBody] parameter, or a complex one of an [ApiController].
    private static bool BindsBody(IMethodSymbol? method)
    {
        if (method?.ContainingType is not { } type || !MvcTypes.IsController(type))
        {
            return false;
        }
        var api = MvcTypes.HasAttribute(type, "Microsoft.AspNetCore.Mvc.ApiControllerAttribute", inherit: true);
        return method.Parameters.Any(p => p.GetAttributes().Any(a => a.AttributeClass?.Name == "FromBodyAttribute")
            || (api && p.Type is { TypeKind: TypeKind.Class, SpecialType: SpecialType.None } t && !p.GetAttributes().Any(a => a.AttributeClass?.Name.StartsWith("From", StringComparison.Ordinal) == true)
                && t.ContainingNamespace?.ToDisplayString() is { } ns && !ns.StartsWith("System", StringComparison.Ordinal) && !ns.StartsWith("Microsoft", StringComparison.Ordinal)));
    }

    // app.UseMiddleware<T>() or app.Use(...) in the main pipeline (not under UseWhen or Map) whose middleware enables
    // buffering before any branch: every request passes it.
    private static bool InPipeline(Compilation compilation)
    {
        FactDependencies.Project("pipeline", compilation);
        return PipelineBuffers.GetValue(compilation, c => new StrongBox<bool>(FindPipelineBuffer(c))).Value;
    }

    private static bool FindPipelineBuffer(Compilation compilation)
    {
        foreach (var tree in compilation.SyntaxTrees)
        {
            var root = tree.GetRoot();
            if (!root.DescendantTokens().Any(t => t.ValueText is "UseMiddleware" or "Use"))
            {
                continue;
            }
            var model = compilation.GetSemanticModel(tree);
            foreach (var use in root.DescendantNodes().OfType<InvocationExpressionSyntax>())
            {
                if (use.Ancestors().Any(a => a is LambdaExpressionSyntax) || model.GetSymbolInfo(use).Symbol is not IMethodSymbol { Name: "UseMiddleware" or "Use" } method)
                {
                    continue;
                }
                var middleware = method.Name == "UseMiddleware" && method.TypeArguments.Length == 1
                    ? method.TypeArguments[0].GetMembers().OfType<IMethodSymbol>().Where(m => m.Name is "Invoke" or "InvokeAsync").SelectMany(m => m.DeclaringSyntaxReferences).Select(r => r.GetSyntax())
                    : use.ArgumentList.Arguments.Select(a => a.Expression).OfType<LambdaExpressionSyntax>();
                if (middleware.Any(EnablesFirst))
                {
                    return true;
                }
            }
        }
        return false;
    }

    private static bool EnablesFirst(SyntaxNode middleware) =>
        middleware.DescendantNodes().OfType<InvocationExpressionSyntax>().Any(i => i.Expression is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "EnableBuffering" }
            && !i.Ancestors().TakeWhile(a => a != middleware).Any(a => a is IfStatementSyntax or ConditionalExpressionSyntax or SwitchStatementSyntax or LambdaExpressionSyntax && a != middleware));
}
