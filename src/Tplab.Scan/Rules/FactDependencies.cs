using Microsoft.CodeAnalysis;

namespace Tplab.Scan.Rules;

/// <summary>
/// What a node's facts were read from beyond its own body, noted while <c>Graph/CallGraph.Facts</c> reads it: another
/// file's syntax (a callee's body, the returns of a method a value came from, the assignments of a field), the callers
/// of a method by its name (the arguments a parameter receives), or a fact of a whole project. An incremental scan
/// (<c>Incremental/PriorWalks</c>) re-walks every entry point whose walk read a node that depends on an edited file.
/// </summary>
internal static class FactDependencies
{
    // Flows into the parallel work a read starts (the root finder binds registrations on every core).
    private static readonly AsyncLocal<System.Collections.Concurrent.ConcurrentDictionary<string, byte>?> Noted = new();

    /// <summary>Reads <paramref name="read"/> with its dependencies noted, and returns them with its result.</summary>
    public static (T Value, IReadOnlyList<string> Tokens) Noting<T>(Func<T> read)
    {
        var outer = Noted.Value;
        var noted = Noted.Value = new System.Collections.Concurrent.ConcurrentDictionary<string, byte>(StringComparer.Ordinal);
        try
        {
            var value = read();
            return (value, [.. noted.Keys.Order(StringComparer.Ordinal)]);
        }
        finally
        {
            Noted.Value = outer;
        }
    }

    /// <summary>The fact read depends on this file's syntax.</summary>
    public static void File(SyntaxTree? tree)
    {
        if (Noted.Value is { } noted && tree?.FilePath is { Length: > 0 } path)
        {
            noted.TryAdd(FileToken(path), 0);
        }
    }

    /// <summary>The fact read depends on every call of methods named <paramref name="name"/> (<paramref name="constructor"/>: creations of the type so named).</summary>
    public static void CallsOf(string name, bool constructor) => Noted.Value?.TryAdd(CallToken(name, constructor), 0);

    /// <summary>The fact read depends on a fact of a whole compilation (the request pipeline's buffering).</summary>
    public static void Project(string fact, Compilation compilation) => Noted.Value?.TryAdd("project:" + fact + ":" + compilation.AssemblyName, 0);

    public static string FileToken(string path) => "file:" + path;

    public static string CallToken(string name, bool constructor) => (constructor ? "new:" : "call:") + name;
}
