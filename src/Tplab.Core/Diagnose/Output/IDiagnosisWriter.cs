using Tplab.Common.Output;

namespace Tplab.Diagnose.Output;

/// <summary>Writes a finished <see cref="Diagnosis"/> in one format.</summary>
public interface IDiagnosisWriter : IOutputFormat
{
    /// <summary>Writes <paramref name="diagnosis"/>; numbers in the invariant culture.</summary>
    void Write(Diagnosis diagnosis, TextWriter output);
}

/// <summary>The formats of <c>tplab diagnose --format</c>.</summary>
public static class DiagnosisFormats
{
    /// <summary>Every writer, text first (the default).</summary>
    public static FormatCatalogue<IDiagnosisWriter> Catalogue { get; } = new(new DiagnosisTextWriter(), new DiagnosisJsonWriter());

    /// <summary>The writer a file's name asks for: .json gives json, any other name text.</summary>
    public static IDiagnosisWriter ForPath(string path) => Catalogue.ForPath(path) ?? Catalogue.Default;
}
