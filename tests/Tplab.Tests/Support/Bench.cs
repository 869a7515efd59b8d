using Tplab.Postgres;

namespace Tplab.Tests.Support;

/// <summary>
/// The switch of what runs only in bench/: <c>TPLAB_BENCH=1</c>, which the bench/ scripts set. A benchmark
/// (bench/Tplab.Bench) or a bench row of the suite (<see cref="BenchRowAttribute"/>) is skipped with that reason otherwise.
/// </summary>
public static class Bench
{
    /// <summary>The trait a bench row carries: <c>dotnet test --filter Category=BenchRow</c> selects them (bench/suite-rows.sh).</summary>
    public const string RowCategory = "BenchRow";

    public static bool On => Environment.GetEnvironmentVariable("TPLAB_BENCH") == "1";
}

/// <summary>
/// A benchmark, not a test: runs only when TPLAB_BENCH=1 (the bench/ scripts set it), skipped with that reason
/// otherwise. A fact of the suite's moved to bench/suite-rows.sh carries it too, with the bench row's trait.
/// </summary>
public sealed class BenchFactAttribute : FactAttribute
{
    public BenchFactAttribute()
    {
        if (!Bench.On)
        {
            Skip = "a benchmark: run it with its bench/ script (TPLAB_BENCH=1)";
        }
    }
}

/// <summary>
/// A case of the suite's that takes the very path of another case the suite runs (the other named in its comment): it
/// proves nothing more in the README's test command, so it runs in bench/suite-rows.sh only (TPLAB_BENCH=1), skipped
/// with that reason otherwise. Mark it <c>[Trait("Category", Bench.RowCategory)]</c> too, so the script finds it.
/// <see cref="Postgres"/>: it also needs PostgreSQL's binaries (skipped with how to install them).
/// </summary>
public sealed class BenchRowAttribute : TheoryAttribute
{
    public BenchRowAttribute()
    {
        if (!Bench.On)
        {
            Skip = "a bench row (the path of a case the suite runs): bench/suite-rows.sh runs it";
        }
    }

    /// <summary>The row needs PostgreSQL's binaries: without them it is skipped, saying how to install them.</summary>
    public bool Postgres
    {
        get => _postgres;
        set
        {
            _postgres = value;
            if (value && Skip is null && PostgresBinaries.Find() is null)
            {
                Skip = "PostgreSQL is not installed: " + PostgresBinaries.HowToEnable;
            }
        }
    }

    private bool _postgres;
}
