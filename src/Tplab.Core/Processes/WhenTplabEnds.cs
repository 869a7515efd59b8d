namespace Tplab.Processes;

/// <summary>How a child ends when tplab dies (even by kill -9, even with its whole process group).</summary>
public enum WhenTplabEnds
{
    /// <summary>It ends itself when its stdin closes (tplab's own programs); the kernel's parent-death signal (SIGKILL) if it cannot.</summary>
    ChildEndsItself,

    /// <summary>A watchdog kills its process group, and the kernel's parent-death signal kills it: any program that does not watch its stdin (<c>watch -- COMMAND</c>).</summary>
    Kill,

    /// <summary>A guardian: on its stdin's end it stops what it owns and cleans up, so it must outlive tplab (no parent-death signal).</summary>
    CleansUp,
}
