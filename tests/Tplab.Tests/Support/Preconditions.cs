using Tplab.Postgres;

namespace Tplab.Tests.Support;

/// <summary>
/// Tools and rights some tests need. A test whose precondition is missing is reported as skipped with the reason
/// (the attributes below set xunit's Skip), never passed silently.
/// </summary>
internal static class Preconditions
{
    /// <summary>The dotnet-trace global tool (scripts/install-deps.sh installs it), or null.</summary>
    public static string? DotnetTrace { get; } = FindDotnetTrace();

    /// <summary>Whether the tests run as root (needed to enter namespaces or run tplab as another user).</summary>
    public static bool IsRoot => Environment.UserName == "root";

    /// <summary>The runtime's own createdump, beside the running runtime's libcoreclr.so, or null.</summary>
    public static string? Createdump { get; } =
        Path.Combine(Path.GetDirectoryName(typeof(object).Assembly.Location) ?? "", "createdump") is var p && File.Exists(p) ? p : null;

    private static string? FindDotnetTrace()
    {
        var home = Environment.GetEnvironmentVariable("HOME") ?? "/root";
        var places = (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries)
            .Append(Path.Combine(home, ".dotnet", "tools"));
        return places.Select(d => Path.Combine(d, "dotnet-trace")).FirstOrDefault(File.Exists);
    }
}

/// <summary>A fact that needs the dotnet-trace tool.</summary>
public sealed class DotnetTraceFactAttribute : FactAttribute
{
    public DotnetTraceFactAttribute()
    {
        if (Preconditions.DotnetTrace is null)
        {
            Skip = "dotnet-trace is not installed (scripts/install-deps.sh test installs it with dotnet tool install -g dotnet-trace)";
        }
    }
}

/// <summary>A fact that needs root (a private mount namespace, another user).</summary>
public sealed class RootFactAttribute : FactAttribute
{
    public RootFactAttribute()
    {
        if (!Preconditions.IsRoot)
        {
            Skip = "needs root (unshare --mount, setpriv); the CI machine runs as root";
        }
    }
}

/// <summary>A fact that needs the runtime's createdump.</summary>
public sealed class CreatedumpFactAttribute : FactAttribute
{
    public CreatedumpFactAttribute()
    {
        if (Preconditions.Createdump is null)
        {
            Skip = "the runtime's createdump is not beside libcoreclr.so in this installation";
        }
    }
}

/// <summary>A theory that needs PostgreSQL: skipped, with how to install it, when its binaries are not on this machine.</summary>
public sealed class PostgresTheoryAttribute : TheoryAttribute
{
    public PostgresTheoryAttribute()
    {
        if (PostgresBinaries.Find() is null)
        {
            Skip = "PostgreSQL is not installed: " + PostgresBinaries.HowToEnable;
        }
    }
}

/// <summary>A benchmark, not a test: runs only when TPLAB_BENCH=1 (the bench/ scripts set it), skipped with that reason otherwise.</summary>
public sealed class BenchFactAttribute : FactAttribute
{
    public BenchFactAttribute()
    {
        if (Environment.GetEnvironmentVariable("TPLAB_BENCH") != "1")
        {
            Skip = "a benchmark: run it with its bench/ script (TPLAB_BENCH=1)";
        }
    }
}
