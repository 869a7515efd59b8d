namespace Tplab.Lab.Experiments;

/// <summary>The target's variants (routes), as the lab and plan files name them.</summary>
public static class Variants
{
    /// <summary>Every variant the target serves; see docs/target.md.</summary>
    public static readonly IReadOnlyList<string> All =
    [
        "sleep", "delay", "task-run-sleep", "http-result", "http-async",
        "db-sync", "db-async-sync-call", "db-task-run", "db-wait", "db-async",
    ];

    /// <summary>Variants that hold a pool thread while they wait.</summary>
    public static readonly IReadOnlySet<string> Blocking = new HashSet<string>(StringComparer.Ordinal)
    {
        "sleep", "task-run-sleep", "http-result", "db-sync", "db-async-sync-call", "db-task-run", "db-wait",
    };
}
