using Tplab.Common.Output;

namespace Tplab.Diagnose.Output;

/// <summary>Writes a finished <see cref="Diagnosis"/> in one format.</summary>
public interface IDiagnosisWriter : IOutputFormat
{
    /// <summary>The value of <c>--format</c> that picks this writer.</summary>
    string Format { get; }

    string IOutputFormat.Name => Format;

    string IOutputFormat.Description => Format;

    /// <summary>A file named .json gets json; .txt text (the default for any other name, see <see cref="DiagnosisFormats.ForPath"/>).</summary>
    IReadOnlyList<string> IOutputFormat.Extensions => [Format == "text" ? ".txt" : "." + Format];

    void Write(Diagnosis diagnosis, TextWriter output);
}

/// <summary>The formats of <c>tplab diagnose --format</c>.</summary>
public static class DiagnosisFormats
{
    /// <summary>Every writer, text first (the default).</summary>
    public static FormatCatalogue<IDiagnosisWriter> Catalogue { get; } = new(new DiagnosisTextWriter(), new DiagnosisJsonWriter());

    /// <summary>Every writer, text first (the default).</summary>
    public static IReadOnlyList<IDiagnosisWriter> All => Catalogue.All;

    /// <summary>The writer for <paramref name="format"/>; a usage error in one line naming the known ones otherwise.</summary>
    public static IDiagnosisWriter Find(string format) => Catalogue.Find(format);

    /// <summary>The writer a file's name asks for: .json gives json, any other name text.</summary>
    public static IDiagnosisWriter ForPath(string path) => Catalogue.ForPath(path) ?? Catalogue.Default;
}
