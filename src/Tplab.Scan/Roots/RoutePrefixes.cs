using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Scan.Graph;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Roots;

/// <summary>
/// Follows a route builder back to where it came from: <c>app.MapGroup("/api").MapGroup("/orders")</c>, a local holding
/// a group, a group passed to a helper (<c>MapOrders(this RouteGroupBuilder group)</c>, found at its callers). The
/// same for an application builder inside <c>app.Map("/legacy", b => ...)</c> or <c>UseWhen(...)</c>: the paths a
/// middleware guards.
/// </summary>
internal sealed class RoutePrefixes(SourceIndex index)
{
    private const int MaxDepth = 6;
    private readonly Callers _callers = index.Callers;

    /// <summary>The route prefixes a builder carries ("" for the app itself); several when a helper is called with several groups.</summary>
    public IReadOnlyList<string> Of(IOperation? builder, IOperation body, int depth = 0)
    {
        var op = Ops.Unwrap(builder);
        if (op is null || depth > MaxDepth)
        {
            return [""];
        }
        switch (op)
        {
            case IInvocationOperation { TargetMethod.Name: "MapGroup" } group:
                var prefix = group.Arguments.Skip(1).Select(a => a.Value.ConstantValue).FirstOrDefault(c => c.HasValue && c.Value is string).Value as string ?? "";
                return [.. Of(Ops.Receiver(group), body, depth + 1).Select(p => Join(p, prefix))];
            case IInvocationOperation call when call.Type is not null && Ops.Receiver(call) is { } receiver
                && SymbolEqualityComparer.Default.Equals(call.Type, receiver.Type):
                // .WithTags(...), .RequireAuthorization(): the same builder, returned for chaining.
                return Of(receiver, body, depth + 1);
            case ILocalReferenceOperation local:
                var values = Ops.ValuesOf(local.Local, body).ToList();
                return values.Count == 0 ? [""] : [.. values.SelectMany(v => Of(v, body, depth + 1)).Distinct()];
            case IParameterReferenceOperation parameter:
                return OfParameter(parameter.Parameter, depth);
            default:
                return [""];
        }
    }

    /// <summary>
    /// The paths a middleware registered on <paramref name="builder"/> guards: empty for the app itself (every request),
    /// <c>/legacy</c> inside <c>app.Map("/legacy", ...)</c> or a <c>UseWhen</c> whose predicate tests that path.
    /// </summary>
    public IReadOnlyList<string> Guards(IOperation? builder, int depth = 0)
    {
        if (Ops.Unwrap(builder) is not IParameterReferenceOperation parameter || depth > MaxDepth)
        {
            return [];
        }
        // The parameter of a configuration lambda: app.Map("/x", branch => branch.UseMiddleware<T>()).
        if (parameter.Parameter.ContainingSymbol is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction } lambda
            && LambdaOperation(lambda, parameter) is { } fn
            && fn.Parent is IDelegateCreationOperation { Parent: IArgumentOperation { Parent: IInvocationOperation branch } })
        {
            var outer = Guards(Ops.Receiver(branch), depth + 1);
            var here = branch.TargetMethod.Name switch
            {
                "Map" => branch.Arguments.Skip(1).Select(a => a.Value.ConstantValue).FirstOrDefault(c => c.HasValue && c.Value is string).Value as string,
                "UseWhen" or "MapWhen" => PathTested(branch),
                _ => null,
            };
            if (here is null)
            {
                return outer;
            }
            return outer.Count == 0 ? [here] : [.. outer.Select(o => Join(o, here))];
        }
        // A helper's builder parameter: guards at its callers (every caller with none means every request).
        var guards = _callers.ArgumentsFor(parameter.Parameter).SelectMany(a => Guards(a.Value, depth + 1)).Distinct().ToList();
        return guards;
    }

    private IReadOnlyList<string> OfParameter(IParameterSymbol parameter, int depth)
    {
        var prefixes = _callers.ArgumentsFor(parameter).SelectMany(a => Of(a.Value, a.Body, depth + 1)).Distinct().ToList();
        return prefixes.Count == 0 ? [""] : prefixes;
    }

    private IAnonymousFunctionOperation? LambdaOperation(IMethodSymbol lambda, IOperation inside)
    {
        for (var p = inside.Parent; p is not null; p = p.Parent)
        {
            if (p is IAnonymousFunctionOperation f && SymbolEqualityComparer.Default.Equals(f.Symbol, lambda))
            {
                return f;
            }
        }
        return null;
    }

    // context => context.Request.Path.StartsWithSegments("/legacy"): the path it tests, else the predicate as written.
    private static string PathTested(IInvocationOperation branch)
    {
        var predicate = branch.Arguments.Skip(1).FirstOrDefault()?.Value;
        var tested = predicate?.DescendantsAndSelf().OfType<IInvocationOperation>()
            .Where(i => i.TargetMethod.Name is "StartsWithSegments" or "StartsWith" or "Equals")
            .SelectMany(i => i.Arguments).Select(a => Ops.Unwrap(a.Value)?.ConstantValue ?? default).FirstOrDefault(c => c.HasValue && c.Value is string);
        return tested is { HasValue: true, Value: string path } ? path : $"the requests where {predicate?.Syntax.ToString() ?? "a condition holds"}";
    }

    /// <summary><c>/api</c> + <c>orders/{id}</c> → <c>/api/orders/{id}</c>.</summary>
    public static string Join(string prefix, string pattern)
    {
        var parts = new[] { prefix, pattern }.Select(p => p.Trim().TrimStart('~').Trim('/')).Where(p => p.Length > 0);
        return "/" + string.Join('/', parts);
    }
}
