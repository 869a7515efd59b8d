using Tplab.Postgres;

namespace Tplab.Tests.Support;

/// <summary>A theory that needs PostgreSQL: skipped, with how to install it, when its binaries are not on this machine.</summary>
[AttributeUsage(AttributeTargets.Method)]
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
