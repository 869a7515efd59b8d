namespace Tplab.Scan.Fix;

/// <summary>Whether changed methods get the <c>Async</c> suffix.</summary>
public enum RenameMode
{
    /// <summary>Follow the solution: suffix when most of its task-returning methods end in <c>Async</c>.</summary>
    Auto,

    /// <summary>Always suffix (a rename updates every reference).</summary>
    Async,

    /// <summary>Never rename.</summary>
    Keep,
}
