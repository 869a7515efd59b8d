using System.Text.RegularExpressions;
using Tplab.Blocking;

namespace Tplab.Diagnose.Stacks;

/// <summary>How the compiler shaped the user frame: the method itself, a lambda or local function in it, or its async state machine.</summary>
public enum UserFrameShape
{
    /// <summary>The method as written.</summary>
    Method,

    /// <summary>A lambda or local function; attributed to the method that contains it.</summary>
    Lambda,

    /// <summary>The <c>MoveNext</c> of an async method's state machine; attributed to the async method.</summary>
    AsyncStateMachine,
}

/// <summary>
/// The application method a blocked stack is attributed to, with compiler-generated names folded back into the
/// method the developer wrote: <c>DbController+&lt;&gt;c__DisplayClass4_0.&lt;DbTaskRun&gt;b__0</c> → <c>DbController.DbTaskRun</c>.
/// </summary>
public sealed partial record UserMethod(string TypeName, string MethodName, UserFrameShape Shape, StackFrame? Frame)
{
    /// <summary><c>Namespace.Type.Method</c>.</summary>
    public string FullName => TypeName + "." + MethodName;

    /// <summary><c>Type.Method</c>, the form a developer searches for; a lambda or local function as the method that declares it, <c>Type.Method (lambda)</c>.</summary>
    public string DisplayName
    {
        get
        {
            var lastDot = TypeName.LastIndexOf('.');
            var type = TypeName[(lastDot + 1)..].Replace('+', '.');
            var name = MethodName switch
            {
                ".ctor" => type + " constructor",
                ".cctor" => type + " static constructor",
                _ => type + "." + MethodName,
            };
            return Shape == UserFrameShape.Lambda || IsLambda ? name + " (lambda)" : name;
        }
    }

    /// <summary>An async lambda or local function: its state machine is the shape, but the method is a lambda in <see cref="MethodName"/>.</summary>
    public bool IsLambda { get; init; }

    // "<Main>$>b__0_1" (what a state machine's name wraps): a lambda ("b__") or a local function ("g__").
    private static bool IsGenerated(string name) => name.Contains(">b__", StringComparison.Ordinal) || name.Contains(">g__", StringComparison.Ordinal);

    /// <summary><c>Namespace.Type.Method</c>, lambdas marked as in <see cref="DisplayName"/>: a frame's name as a user reads it.</summary>
    public string ReadableName => Shape == UserFrameShape.Lambda || IsLambda ? FullName + " (lambda)" : FullName;

    public override string ToString() => FullName;

    /// <summary>A method known by name only (from the IL, MVC's events or the JIT's inlining events), with no frame on the stack.</summary>
    public static UserMethod Named(string typeName, string methodName) =>
        From(new StackFrame("", typeName, methodName)) with { Frame = null };

    /// <summary>Folds compiler-generated types and methods of <paramref name="frame"/> into the method the developer wrote.</summary>
    public static UserMethod From(StackFrame frame)
    {
        ArgumentNullException.ThrowIfNull(frame);
        var segments = frame.OpenTypeName.Split('+');
        var written = segments.TakeWhile(s => !s.StartsWith('<')).ToList();
        var generated = segments.Skip(written.Count).ToList();
        var type = written.Count > 0 ? string.Join('+', written) : frame.OpenTypeName;

        // An async method or iterator: "<DbAsyncSyncCall>d__2.MoveNext".
        var machine = generated.LastOrDefault(s => StateMachine().IsMatch(s));
        if (machine is not null && frame.MethodName == "MoveNext")
        {
            // An async lambda's state machine ("<<Main>$>b__0_1>d") is a lambda too.
            return new UserMethod(type, OriginalName(machine), UserFrameShape.AsyncStateMachine, frame) { IsLambda = IsGenerated(machine[1..]) };
        }
        // The stub the source generator writes for a P/Invoke ("<Receive>g____PInvoke|70_0") is the P/Invoke itself.
        if (frame.MethodName.StartsWith('<') && frame.MethodName.Contains("PInvoke", StringComparison.Ordinal))
        {
            return new UserMethod(type, OriginalName(frame.MethodName), UserFrameShape.Method, frame);
        }
        // A lambda ("<DbTaskRun>b__0") or local function ("<Run>g__Local|3_0"), in a closure class or not.
        if (frame.MethodName.StartsWith('<'))
        {
            return new UserMethod(type, OriginalName(frame.MethodName), UserFrameShape.Lambda, frame);
        }
        return new UserMethod(type, frame.MethodName, generated.Count > 0 ? UserFrameShape.Lambda : UserFrameShape.Method, frame);
    }

    private static string OriginalName(string generated)
    {
        var match = EnclosingName().Match(generated);
        return match.Success && match.Groups[1].Length > 0 ? match.Groups[1].Value : generated;
    }

    // "<<Invoke>g__AwaitMatcher|10_0>d" → "Invoke": the innermost first name is the method the developer wrote.
    [GeneratedRegex(@"^<+([^<>]*)>")]
    private static partial Regex EnclosingName();

    [GeneratedRegex(@">d(__\d+)?(`\d+)?$")]
    private static partial Regex StateMachine();
}
