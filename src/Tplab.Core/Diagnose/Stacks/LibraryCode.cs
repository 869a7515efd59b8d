using Tplab.Blocking;

namespace Tplab.Diagnose.Stacks;

/// <summary>
/// Decides which frames belong to the runtime, ASP.NET Core and drivers (library code) and which to the
/// application: the first application frame from the top is where a blocking call is attributed.
/// </summary>
public sealed class LibraryCode
{
    /// <summary>Namespace or module prefixes treated as library code unless the options add more.</summary>
    public static readonly IReadOnlyList<string> DefaultPrefixes =
    [
        "System.", "Microsoft.", "Interop", "Internal.", "netstandard", "mscorlib",
        // Database drivers and common client libraries: the user's call into them is the interesting frame.
        "Npgsql", "MySqlConnector", "MySql.", "Oracle.", "Dapper", "StackExchange.Redis", "MongoDB.",
        "Newtonsoft.", "Grpc.", "Google.Protobuf", "Polly", "Azure.", "Amazon.",
    ];

    private readonly IReadOnlyList<string> _prefixes;

    public LibraryCode(IEnumerable<string>? extraPrefixes = null) =>
        _prefixes = [.. DefaultPrefixes, .. extraPrefixes ?? []];

    /// <summary>True for runtime, framework and driver frames, and for frames the runtime could not name.</summary>
    public bool IsLibrary(StackFrame frame)
    {
        if (frame.IsUnresolved || frame.TypeName.StartsWith("dynamicClass", StringComparison.Ordinal)
            || frame.Module.StartsWith("Anonymously Hosted DynamicMethods", StringComparison.Ordinal))
        {
            // MVC's compiled action invokers (dynamicClass.lambda_method12) sit between ASP.NET Core and the action.
            return true;
        }
        foreach (var prefix in _prefixes)
        {
            if (frame.TypeName.StartsWith(prefix, StringComparison.Ordinal) || frame.Module.StartsWith(prefix, StringComparison.Ordinal))
            {
                return true;
            }
        }
        return false;
    }
}
