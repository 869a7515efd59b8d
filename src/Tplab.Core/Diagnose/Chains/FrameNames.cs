using Tplab.Blocking;
using Tplab.Diagnose.Requests;
using Tplab.Diagnose.Stacks;

namespace Tplab.Diagnose.Chains;

/// <summary>
/// A stack frame's name as a user reads it: compiler-generated names folded into the method written (an async
/// method's <c>+&lt;Load&gt;d__3.MoveNext</c> is <c>Load</c>, a lambda is its method plus <c>(lambda)</c>), and ASP.NET
/// Core's compiled invoker (<c>dynamicClass.lambda_method12</c>) named by what it runs.
/// </summary>
internal static class FrameNames
{
    /// <summary>The frame's readable name; <paramref name="endpoint"/> and <paramref name="root"/> name the compiled invoker.</summary>
    public static string Of(StackFrame frame, Endpoint? endpoint, ChainHop? root)
    {
        if (frame.IsUnresolved)
        {
            return "[native code]";
        }
        if (FrameKinds.IsCompiledLambda(frame))
        {
            if (FrameKinds.IsMiddlewareInvoker(frame))
            {
                return root is not null ? $"[ASP.NET Core's compiled invoker of {root.Method.TypeName[(root.Method.TypeName.LastIndexOf('.') + 1)..].Replace('+', '.')}]" : "[ASP.NET Core's compiled invoker of a middleware]";
            }
            return endpoint is not null ? $"[ASP.NET Core's compiled invoker of {(endpoint.Action is { } action ? action.FullName[(action.TypeName.LastIndexOf('.') + 1)..] : endpoint.ToString())}]"
                : root is not null ? $"[compiled invoker of {root.Name}]"
                : "[a compiled expression (ASP.NET Core's invoker, or an expression tree)]";
        }
        return UserMethod.From(frame).ReadableName;
    }
}
