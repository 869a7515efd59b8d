namespace Tplab.Bench;

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
