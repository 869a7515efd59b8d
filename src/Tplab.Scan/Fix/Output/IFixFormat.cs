using Tplab.Common.Output;

namespace Tplab.Scan.Fix.Output;

/// <summary>An output format of <c>tplab fix</c>, known by its <c>--format</c> name or the <c>-o</c> file's extension; it writes itself.</summary>
public interface IFixFormat : IOutputFormat
{
    /// <summary>
    /// What it carries when it holds changes still to make (the patch, SARIF's fixes), in words for a refusal; null for
    /// a report of what was done. Such a format is not <c>--apply</c>'s report, and the text summary goes to progress beside it.
    /// </summary>
    string? ChangesToMake => null;

    /// <summary>Writes <paramref name="result"/>; numbers in the invariant culture.</summary>
    void Write(FixResult result, TextWriter writer);
}
