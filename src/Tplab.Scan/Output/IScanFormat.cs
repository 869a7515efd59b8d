namespace Tplab.Scan.Output;

/// <summary>An output format of <c>tplab scan</c>, known by its <c>--format</c> name.</summary>
public interface IScanFormat
{
    /// <summary>The <c>--format</c> name.</summary>
    string Name { get; }

    /// <summary>The file extension that picks this format for <c>-o FILE</c> when no --format is given.</summary>
    string Extension { get; }

    /// <summary>One line for --help and docs.</summary>
    string Description { get; }

    /// <summary>Writes <paramref name="result"/>; numbers in the invariant culture.</summary>
    void Write(ScanResult result, TextWriter writer);
}
