using Tplab.Postgres;

namespace Tplab.Tests.Support;

/// <summary>What a test needs from the machine beyond the .NET SDK.</summary>
public enum Need
{
    /// <summary>PostgreSQL server binaries (scripts/install-deps.sh installs them).</summary>
    PostgresBinaries,

    /// <summary>When running as root, a postgres user to run PostgreSQL (or a stand-in) as; nothing when not root.</summary>
    PostgresUserWhenRoot,

    /// <summary>Root and setpriv, to run tplab as another user.</summary>
    RootWithSetpriv,

    /// <summary>TPLAB_BENCH=1: a benchmark, run by its bench/ script, never counted as a passing test.</summary>
    Benchmark,
}

/// <summary>
/// The project's skip mechanism (xunit v2 reads <c>Skip</c> when it discovers a test): a test whose precondition is
/// missing is reported SKIPPED with the reason, never passed without running.
/// </summary>
internal static class Requires
{
    /// <summary>Why <paramref name="need"/> is not met here, or null when it is.</summary>
    public static string? Missing(Need need) => need switch
    {
        Need.PostgresBinaries => PostgresBinaries.Find() is null ? "PostgreSQL server binaries not found: run scripts/install-deps.sh (apt-get install postgresql)" : null,
        Need.PostgresUserWhenRoot => Environment.IsPrivilegedProcess && !File.ReadLines("/etc/passwd").Any(l => l.StartsWith("postgres:", StringComparison.Ordinal))
            ? "running as root without a postgres user to run the server as: run scripts/install-deps.sh (apt-get install postgresql)" : null,
        Need.RootWithSetpriv => !Environment.IsPrivilegedProcess ? "needs root, to run tplab as another user (the CI machine is root)"
            : !File.Exists("/usr/bin/setpriv") ? "needs /usr/bin/setpriv (util-linux) to run tplab as another user" : null,
        Need.Benchmark => Environment.GetEnvironmentVariable("TPLAB_BENCH") == "1" ? null
            : "a benchmark, not a test: bench/watch.sh runs it with TPLAB_BENCH=1 and BENCHMARKS.md has its figures",
        _ => throw new ArgumentOutOfRangeException(nameof(need)),
    };
}

/// <summary>A fact that is skipped, with the reason, when a <see cref="Need"/> is missing.</summary>
public sealed class FactWhenAttribute : FactAttribute
{
    public FactWhenAttribute(params Need[] needs) => Skip = needs.Select(Requires.Missing).FirstOrDefault(m => m is not null);
}

/// <summary>A theory that is skipped, with the reason, when a <see cref="Need"/> is missing.</summary>
public sealed class TheoryWhenAttribute : TheoryAttribute
{
    public TheoryWhenAttribute(params Need[] needs) => Skip = needs.Select(Requires.Missing).FirstOrDefault(m => m is not null);
}
