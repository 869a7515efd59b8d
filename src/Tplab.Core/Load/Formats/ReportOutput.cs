namespace Tplab.Load.Formats;

/// <summary>One output of a run: a format and where it goes (a file path, or null for standard output).</summary>
public sealed record ReportOutput(ILoadFormat Format, string? Path)
{
    /// <summary>"json to out.json" / "text to stdout", for messages.</summary>
    public override string ToString() => $"{Format.Name} to {Path ?? "stdout"}";
}
