namespace Tplab.Tests.Support;

/// <summary>A benchmark, not a test: runs only when TPLAB_BENCH=1 (the bench/ scripts set it), skipped with that reason otherwise.</summary>
[AttributeUsage(AttributeTargets.Method)]
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
