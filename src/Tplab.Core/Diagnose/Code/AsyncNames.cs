namespace Tplab.Diagnose.Code;

/// <summary>
/// How the C# compiler names an async method's state machine, read both ways: <c>Shop.Api+&lt;Load&gt;d__3</c> holds the
/// body of <c>Shop.Api.Load</c>. Pure: no assembly is read.
/// </summary>
internal static partial class AsyncNames
{
    /// <summary>
    /// The async method or async lambda whose state machine <paramref name="machineType"/> is: <c>Shop.Api+&lt;Load&gt;d__3</c> →
    /// (<c>Shop.Api</c>, <c>Load</c>); <c>Shop.Endpoints+&lt;&gt;c+&lt;&lt;Map&gt;b__2_0&gt;d</c> → (<c>Shop.Endpoints+&lt;&gt;c</c>, <c>&lt;Map&gt;b__2_0</c>). Null for other types.
    /// </summary>
    public static (string Type, string Method)? AsyncMethodOf(string machineType)
    {
        ArgumentNullException.ThrowIfNull(machineType);
        var plus = machineType.LastIndexOf('+');
        var match = plus > 0 ? StateMachineName().Match(machineType[(plus + 1)..]) : null;
        return match is { Success: true } ? (machineType[..plus], match.Groups[1].Value) : null;
    }

    /// <summary>The method as the IL names its callers' calls: a state machine's MoveNext is its async method (or async lambda).</summary>
    public static (string Type, string Method) Written(string type, string method) =>
        method == "MoveNext" && AsyncMethodOf(type) is { } written ? written : (type, method);

    /// <summary>True when <paramref name="key"/> (<c>Type.Method</c>) is a state machine's MoveNext.</summary>
    public static bool IsMoveNext(string key) =>
        key.EndsWith(".MoveNext", StringComparison.Ordinal) && AsyncMethodOf(key[..^".MoveNext".Length]) is not null;

    [System.Text.RegularExpressions.GeneratedRegex(@"^<(.+)>d(__\d+)?(`\d+)?$")]
    private static partial System.Text.RegularExpressions.Regex StateMachineName();
}
