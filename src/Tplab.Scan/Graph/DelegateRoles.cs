using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Tplab.Scan.Rules;

namespace Tplab.Scan.Graph;

/// <summary>
/// How a delegate handed to a method runs, by the method it is handed to: on another pool thread (<c>Task.Run</c>,
/// <c>StartNew</c>, <c>QueueUserWorkItem</c>), as a continuation, inline (LINQ, a cache's factory on a miss), or not from
/// here at all (a thread of its own, a timer, a registration read at startup).
/// </summary>
internal static class DelegateRoles
{
    // Library methods whose delegate argument never runs on this request's thread (a thread of its own, a timer, a
    // registration read at startup): not followed from here. Timers and registrations are entry points of their own.
    private static readonly string[] NotRunHere =
    [
        "System.Threading.Thread", "System.Threading.Timer", "System.Timers.Timer", "System.Threading.CancellationToken",
        "System.Threading.CancellationTokenSource", "System.AppDomain", "System.Runtime.Loader.AssemblyLoadContext",
    ];

    private static readonly string[] RegistrationNamespaces =
    [
        "Microsoft.Extensions.DependencyInjection", "Microsoft.AspNetCore.Builder", "Microsoft.AspNetCore.Routing", "Microsoft.Extensions.Hosting",
        "Microsoft.AspNetCore.Hosting", "Microsoft.Extensions.Options", "Microsoft.Extensions.Configuration", "Microsoft.AspNetCore.Http.EndpointFilterExtensions",
        "Microsoft.Extensions.Logging", "Microsoft.AspNetCore.Mvc.MvcOptions", "Microsoft.Extensions.Http",
    ];

    /// <summary>How a delegate handed to <paramref name="method"/> runs: on a pool thread (Task.Run), as a continuation, inline, or not from here.</summary>
    public static (EdgeKind Kind, bool Conditional, bool Skip) Of(SourceIndex index, IOperation call, IMethodSymbol method)
    {
        var type = method.ContainingType is { } t ? SymbolNames.MetadataName(t) : "";
        var name = method.Name;
        if (type is "System.Threading.Tasks.Task" && name == "Run"
            || type is "System.Threading.Tasks.TaskFactory" or "System.Threading.Tasks.TaskFactory`1" && name == "StartNew"
            || type == "System.Threading.ThreadPool" && name.Contains("QueueUserWorkItem", StringComparison.Ordinal))
        {
            // LongRunning gets a thread of its own, not a pool thread.
            var longRunning = call.Descendants().OfType<IFieldReferenceOperation>().Any(f => f.Field.Name == "LongRunning");
            return (EdgeKind.TaskRun, false, longRunning);
        }
        if (name == "ContinueWith")
        {
            return (EdgeKind.Continuation, false, false);
        }
        if (index.IsSource(method))
        {
            return (EdgeKind.Callback, false, false);
        }
        if (NotRunHere.Contains(type) || RegistrationNamespaces.Any(ns => type.StartsWith(ns, StringComparison.Ordinal)) || name is "Register" or "UnsafeRegister")
        {
            return (EdgeKind.Callback, false, true);
        }
        // A cache's or Lazy's factory runs on a miss only.
        var onMiss = name is "GetOrAdd" or "AddOrUpdate" or "GetOrCreate" or "GetOrCreateAsync" || type == "System.Lazy`1";
        return (EdgeKind.Callback, onMiss, false);
    }

    // "await Task.Run(...)", "await Task.Run(...).ConfigureAwait(false)", and "return Task.Run(...)" (the caller awaits it).
    /// <summary>Whether the call's task is awaited where it is made, or returned to be awaited.</summary>
    public static bool IsAwaited(IOperation call)
    {
        var p = call.Parent;
        while (p is IConversionOperation or IArgumentOperation || p is IInvocationOperation { TargetMethod.Name: "ConfigureAwait" })
        {
            p = p.Parent;
        }
        return p is IAwaitOperation or IReturnOperation;
    }

}
