namespace Tplab.Postgres;

/// <summary>Finds the PostgreSQL server binaries (initdb, postgres) installed on this machine.</summary>
public static class PostgresBinaries
{
    /// <summary>One line telling how to get a database when the binaries are missing.</summary>
    public const string HowToEnable =
        "PostgreSQL server binaries not found: install them (Debian: apt-get install postgresql) or pass --pg CONNSTRING (or set TPLAB_PG)";

    /// <summary>The folder holding initdb and postgres, or null when none is installed.</summary>
    public static string? Find() =>
        Find(Environment.GetEnvironmentVariable("TPLAB_PG_BIN"), "/usr/lib/postgresql", Environment.GetEnvironmentVariable("PATH"));

    /// <summary>
    /// The search itself: <paramref name="fromEnvironment"/> (TPLAB_PG_BIN) when set, and then only it; else the
    /// newest version under <paramref name="debianRoot"/> (Debian keeps one folder per major version); else PATH.
    /// </summary>
    internal static string? Find(string? fromEnvironment, string debianRoot, string? path)
    {
        if (!string.IsNullOrEmpty(fromEnvironment))
        {
            return Has(fromEnvironment) ? fromEnvironment : null;
        }
        if (Directory.Exists(debianRoot))
        {
            var newest = Directory.GetDirectories(debianRoot)
                .Select(d => (Dir: Path.Combine(d, "bin"), Version: int.TryParse(Path.GetFileName(d), out var v) ? v : 0))
                .Where(x => Has(x.Dir))
                .OrderByDescending(x => x.Version)
                .Select(x => x.Dir)
                .FirstOrDefault();
            if (newest is not null)
            {
                return newest;
            }
        }
        return (path ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries).FirstOrDefault(Has);
    }

    private static bool Has(string dir) => File.Exists(Path.Combine(dir, "initdb")) && File.Exists(Path.Combine(dir, "postgres"));
}
