using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Scan.Graph;

namespace Tplab.Scan.Roots;

/// <summary>
/// The calls that register entry points (MapGet, Use, UseMiddleware, AddSingleton, new Timer...), found by name in the
/// syntax first and bound only then, so the scan does not bind every body of the solution to find them.
/// </summary>
internal sealed class Sites
{
    private static readonly HashSet<string> Names = new(StringComparer.Ordinal)
    {
        "MapGet", "MapPost", "MapPut", "MapDelete", "MapPatch", "MapMethods", "Map", "MapFallback",
        "Use", "Run", "UseMiddleware", "UseMiddlewareAsync",
        "AddSingleton", "AddScoped", "AddTransient", "TryAddSingleton", "TryAddScoped", "TryAddTransient",
        "AddKeyedSingleton", "AddKeyedScoped", "AddKeyedTransient", "TryAddKeyedSingleton", "TryAddKeyedScoped", "TryAddKeyedTransient",
        "MapHub", "MapHealthChecks", "AddCheck", "WaitForNextTickAsync", "Add", "AddService", "MapControllerRoute", "MapDefaultControllerRoute", "MapAreaControllerRoute",
        "QueueUserWorkItem", "UnsafeQueueUserWorkItem",
    };

    // The bound calls (creations, assignments) by the name they are found by, in the files' order.
    private readonly Dictionary<string, List<IOperation>> _byName = new(StringComparer.Ordinal);

    public Sites(SourceIndex index, CancellationToken cancellationToken)
    {
        // Each file read on its own, then the calls bound, one per worker: binding a call binds its whole body, the
        // cost of finding entry points in a fresh process. Every call found is asked for by a reader of registrations.
        var found = index.PerTree(tree => tree.GetRoot(cancellationToken).DescendantNodes().Select(n => (Name: NameOf(n), Node: n)).Where(x => x.Name is not null).ToList(), cancellationToken)
            .SelectMany(f => f).ToList();
        Files = [.. found.Select(f => f.Node.SyntaxTree.FilePath).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal)];
        var bound = index.Each(found, x => index.Model(x.Node.SyntaxTree).GetOperation(x.Node, cancellationToken), cancellationToken);
        foreach (var (name, operation) in found.Select(f => f.Name!).Zip(bound))
        {
            if (operation is null)
            {
                continue;
            }
            if (!_byName.TryGetValue(name, out var list))
            {
                _byName[name] = list = [];
            }
            list.Add(operation);
        }
    }

    /// <summary>The files that hold a registration (full paths): what the entry points are read from, beyond declarations.</summary>
    public IReadOnlyList<string> Files { get; }

    /// <summary>Whether <paramref name="tree"/> holds a registration (a call, creation or assignment the root finder reads).</summary>
    public static bool Registers(SyntaxTree tree) => tree.GetRoot().DescendantNodes().Any(n => NameOf(n) is not null);

    // The name a registration is found by, or null: not one.
    private static string? NameOf(SyntaxNode node)
    {
        var name = node switch
        {
            InvocationExpressionSyntax i => Worth(i) ? InvokedName(i.Expression) : null,
            ObjectCreationExpressionSyntax { Type: var t } when t.ToString().EndsWith("Timer", StringComparison.Ordinal) => "new",
            ImplicitObjectCreationExpressionSyntax { ArgumentList.Arguments: var a } when a.Any(x => x.Expression is AnonymousFunctionExpressionSyntax) => "new",
            AssignmentExpressionSyntax { RawKind: (int)SyntaxKind.AddAssignmentExpression } a => InvokedName(a.Left) is "Elapsed" ? "Elapsed" : null,
            AssignmentExpressionSyntax { RawKind: (int)SyntaxKind.SimpleAssignmentExpression } a => InvokedName(a.Left) is "ConnectCallback" ? "ConnectCallback"
                : SetsOption(a) ? "option" : null,
            _ => null,
        };
        return name is not null && (Names.Contains(name) || name is "new" or "Elapsed" or "ConnectCallback" or "option") ? name : null;
    }

    /// <summary>The bound invocations of methods called <paramref name="name"/>, each with its body's root operation.</summary>
    public IEnumerable<(IInvocationOperation Call, IOperation Body)> Invocations(string name)
    {
        foreach (var operation in _byName.GetValueOrDefault(name) ?? [])
        {
            if (operation is IInvocationOperation call)
            {
                yield return (call, RootOf(call));
            }
        }
    }

    /// <summary>Every bound <c>new T(...)</c> of a type named <paramref name="metadataName"/>.</summary>
    public IEnumerable<(IObjectCreationOperation Creation, IOperation Body)> Creations(string metadataName)
    {
        foreach (var operation in _byName.GetValueOrDefault("new") ?? [])
        {
            if (operation is IObjectCreationOperation creation && Rules.Ops.NameOf(creation.Type) == metadataName)
            {
                yield return (creation, RootOf(creation));
            }
        }
    }

    /// <summary><c>timer.Elapsed += handler</c> on a System.Timers.Timer.</summary>
    public IEnumerable<IEventAssignmentOperation> ElapsedHandlers()
    {
        foreach (var operation in _byName.GetValueOrDefault("Elapsed") ?? [])
        {
            if (operation is IEventAssignmentOperation { Adds: true } assignment
                && assignment.EventReference is IEventReferenceOperation e && Rules.Ops.NameOf(e.Event.ContainingType) == "System.Timers.Timer")
            {
                yield return assignment;
            }
        }
    }

    /// <summary>The values assigned to <c>SocketsHttpHandler.ConnectCallback</c> (in an initializer or a statement).</summary>
    public IEnumerable<IOperation> ConnectCallbacks()
    {
        foreach (var operation in _byName.GetValueOrDefault("ConnectCallback") ?? [])
        {
            if (operation is ISimpleAssignmentOperation { Target: IPropertyReferenceOperation p } assignment
                && Rules.Ops.NameOf(p.Property.ContainingType) == "System.Net.Http.SocketsHttpHandler")
            {
                yield return assignment.Value;
            }
        }
    }

    /// <summary>
    /// <c>options.SessionStore = new TicketStore(…)</c>, <c>options</c> a parameter of the method or lambda that holds it (a
    /// <c>PostConfigure</c>, an <c>AddCookie(o =&gt; …)</c> lambda): the property set and the type created.
    /// </summary>
    public IEnumerable<(IPropertySymbol Property, INamedTypeSymbol Created)> OptionInstances()
    {
        foreach (var operation in _byName.GetValueOrDefault("option") ?? [])
        {
            if (operation is ISimpleAssignmentOperation { Target: IPropertyReferenceOperation p } assignment
                && Rules.Ops.Unwrap(assignment.Value) is IObjectCreationOperation { Type: INamedTypeSymbol created })
            {
                yield return (p.Property, created);
            }
        }
    }

    // x.P = new T(…) where x is a parameter of the enclosing lambda, method or local function.
    private static bool SetsOption(AssignmentExpressionSyntax a)
    {
        if (a.Right is not BaseObjectCreationExpressionSyntax || a.Left is not MemberAccessExpressionSyntax { Expression: IdentifierNameSyntax receiver })
        {
            return false;
        }
        var name = receiver.Identifier.ValueText;
        return a.Ancestors().FirstOrDefault(n => n is AnonymousFunctionExpressionSyntax or BaseMethodDeclarationSyntax or LocalFunctionStatementSyntax) switch
        {
            SimpleLambdaExpressionSyntax l => l.Parameter.Identifier.ValueText == name,
            ParenthesizedLambdaExpressionSyntax l => l.ParameterList.Parameters.Any(x => x.Identifier.ValueText == name),
            BaseMethodDeclarationSyntax m => m.ParameterList.Parameters.Any(x => x.Identifier.ValueText == name),
            LocalFunctionStatementSyntax f => f.ParameterList.Parameters.Any(x => x.Identifier.ValueText == name),
            _ => false,
        };
    }

    public static IOperation RootOf(IOperation op)
    {
        while (op.Parent is not null)
        {
            op = op.Parent;
        }
        return op;
    }

    // Binding a call binds its whole method body, the costly part of a scan: leave out by their shape the calls that
    // cannot register anything (Task.Run, list.Add, app.Run() without a delegate, AddSingleton<T>() without a factory,
    // a functional library's option.Map(x => ...): every Map the registrations read takes a pattern and a handler).
    internal static bool Worth(InvocationExpressionSyntax invocation)
    {
        var name = InvokedName(invocation.Expression);
        var arguments = invocation.ArgumentList.Arguments;
        var receiver = invocation.Expression is MemberAccessExpressionSyntax m ? m.Expression.ToString() : "";
        var handsCode = arguments.Any(a => a.Expression is AnonymousFunctionExpressionSyntax or IdentifierNameSyntax or MemberAccessExpressionSyntax);
        return name switch
        {
            "Add" or "AddService" => receiver.EndsWith("Filters", StringComparison.Ordinal),
            "Run" => receiver != "Task" && arguments.Count == 1 && handsCode,
            "Map" => arguments.Count >= 2 && handsCode,
            "Use" or "MapFallback" => handsCode,
            "MapGet" or "MapPost" or "MapPut" or "MapDelete" or "MapPatch" or "MapMethods" => arguments.Count >= 2,
            "AddCheck" => true,
            _ when name?.StartsWith("Add", StringComparison.Ordinal) == true || name?.StartsWith("TryAdd", StringComparison.Ordinal) == true => handsCode,
            _ => true,
        };
    }

    private static string? InvokedName(ExpressionSyntax expression) => expression switch
    {
        MemberAccessExpressionSyntax m => m.Name.Identifier.ValueText,
        IdentifierNameSyntax i => i.Identifier.ValueText,
        GenericNameSyntax g => g.Identifier.ValueText,
        MemberBindingExpressionSyntax b => b.Name.Identifier.ValueText,
        _ => null,
    };
}
