namespace Tplab.Diagnose.Output;

/// <summary>Writes a finished <see cref="Diagnosis"/> in one format.</summary>
public interface IDiagnosisWriter
{
    /// <summary>The value of <c>--format</c> that picks this writer.</summary>
    string Format { get; }

    void Write(Diagnosis diagnosis, TextWriter output);
}

/// <summary>The formats of <c>tplab diagnose --format</c>.</summary>
public static class DiagnosisFormats
{
    /// <summary>Every writer, text first (the default).</summary>
    public static IReadOnlyList<IDiagnosisWriter> All { get; } = [new DiagnosisTextWriter(), new DiagnosisJsonWriter()];

    /// <summary>The writer for <paramref name="format"/>, or null when there is none.</summary>
    public static IDiagnosisWriter? Find(string format) =>
        All.FirstOrDefault(w => string.Equals(w.Format, format, StringComparison.OrdinalIgnoreCase));
}
