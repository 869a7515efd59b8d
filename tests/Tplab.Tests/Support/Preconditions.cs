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

    /// <summary>Runs a tool (dotnet-trace, createdump) to its end within <paramref name="limit"/>; its exit code and both outputs.</summary>
    public static async Task<(int ExitCode, string Output)> RunToolAsync(string tool, TimeSpan limit, params string[] args)
    {
        var info = new System.Diagnostics.ProcessStartInfo(tool) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var arg in args)
        {
            info.ArgumentList.Add(arg);
        }
        using var process = System.Diagnostics.Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = await process.StandardError.ReadToEndAsync();
        try
        {
            await process.WaitForExitAsync().WaitAsync(limit);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }
        return (process.ExitCode, await stdout + stderr);
    }

    /// <summary>Prometheus's server (Debian package prometheus), or null.</summary>
    public static string? Prometheus { get; } = new[] { "/usr/bin/prometheus", "/usr/local/bin/prometheus" }.FirstOrDefault(File.Exists);

    /// <summary>Prometheus's promtool (same package), or null.</summary>
    public static string? Promtool { get; } = new[] { "/usr/bin/promtool", "/usr/local/bin/promtool" }.FirstOrDefault(File.Exists);

    /// <summary>gdb's gcore, which dumps any process (here: one without .NET), or null.</summary>
    public static string? Gcore { get; } = new[] { "/usr/bin/gcore", "/usr/local/bin/gcore" }.FirstOrDefault(File.Exists);

    /// <summary>Whether node is on the PATH (the browser and schema checks run through it).</summary>
    public static bool Node { get; } = OnPath("node") is not null;

    /// <summary><paramref name="tool"/>'s path in the first PATH folder (then <paramref name="alsoIn"/>) that holds it, or null.</summary>
    public static string? OnPath(string tool, params string[] alsoIn) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries).Concat(alsoIn)
            .Select(d => Path.Combine(d, tool)).FirstOrDefault(File.Exists);

    private static string? FindDotnetTrace() =>
        OnPath("dotnet-trace", Path.Combine(Environment.GetEnvironmentVariable("HOME") ?? "/root", ".dotnet", "tools"));
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

/// <summary>A theory that needs root (mounting a small tmpfs).</summary>
public sealed class RootTheoryAttribute : TheoryAttribute
{
    public RootTheoryAttribute()
    {
        if (!Preconditions.IsRoot)
        {
            Skip = "needs root (mount -t tmpfs); the CI machine runs as root";
        }
    }
}

/// <summary>A fact that needs gdb's gcore.</summary>
public sealed class GcoreFactAttribute : FactAttribute
{
    public GcoreFactAttribute()
    {
        if (Preconditions.Gcore is null)
        {
            Skip = "gcore (Debian package gdb) is not installed; scripts/install-deps.sh test installs it";
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

/// <summary>A fact that needs PostgreSQL: skipped, with how to install it, when its binaries are not on this machine.</summary>
public sealed class PostgresFactAttribute : FactAttribute
{
    public PostgresFactAttribute()
    {
        if (PostgresBinaries.Find() is null)
        {
            Skip = "PostgreSQL is not installed: " + PostgresBinaries.HowToEnable;
        }
    }
}

/// <summary>
/// A theory that runs a PostgreSQL guardian (real or stand-in binaries): as root it runs them as the postgres user,
/// so that user must exist; skipped with the reason when it does not. Not root: nothing needed.
/// </summary>
public sealed class PostgresUserTheoryAttribute : TheoryAttribute
{
    public PostgresUserTheoryAttribute()
    {
        if (Preconditions.IsRoot && !File.ReadLines("/etc/passwd").Any(l => l.StartsWith("postgres:", StringComparison.Ordinal)))
        {
            Skip = "running as root without a postgres user to run the server as: scripts/install-deps.sh installs postgresql, which creates it";
        }
    }
}

/// <summary>A fact that needs a real Prometheus server and its promtool.</summary>
public sealed class PrometheusFactAttribute : FactAttribute
{
    public PrometheusFactAttribute()
    {
        if (Preconditions.Prometheus is null || Preconditions.Promtool is null)
        {
            Skip = "Prometheus is not installed (Debian package prometheus; scripts/install-deps.sh test installs it)";
        }
    }
}
