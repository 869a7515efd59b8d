namespace Tplab.Scan;

/// <summary>
/// Where a scan says what it is doing: lines a user must see (a restore started, a project skipped) and a transient
/// status (which project is loading) that a terminal shows in place and a log leaves out.
/// </summary>
public interface IScanProgress
{
    /// <summary>A line to keep: what ran, what was skipped and why.</summary>
    void Line(string text);

    /// <summary>What is happening now; replaced by the next status or line.</summary>
    void Status(string text);
}

/// <summary>Progress that goes nowhere (library callers and tests that do not look).</summary>
public sealed class SilentProgress : IScanProgress
{
    public static readonly SilentProgress Instance = new();

    public void Line(string text)
    {
    }

    public void Status(string text)
    {
    }
}
