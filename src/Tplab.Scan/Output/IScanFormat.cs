using Tplab.Common.Output;

namespace Tplab.Scan.Output;

/// <summary>An output format of <c>tplab scan</c>, known by its <c>--format</c> name or the <c>-o</c> file's extension.</summary>
public interface IScanFormat : IOutputFormat
{
    /// <summary>Writes <paramref name="result"/>; numbers in the invariant culture.</summary>
    void Write(ScanResult result, TextWriter writer);
}
