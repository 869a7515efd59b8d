using Tplab.Common.Output;

namespace Tplab.Lab.Tuning;

/// <summary>The catalogue of <c>tplab tune --format</c> on stdout: text (the default), json. The results folder always holds tune.json and tune.html.</summary>
public static class TuneFormats
{
    /// <summary>Every format, text first.</summary>
    public static FormatCatalogue<IDocumentFormat<TuneResult>> Catalogue { get; } = new(
        new DocumentFormat<TuneResult>("text", "the answer, every trial and the settings to paste", [".txt"], TuneText.Write),
        new DocumentFormat<TuneResult>("json", "tune.json on stdout, progress on stderr (docs/schemas/tune.schema.json)", [".json"], TuneJson.Write) { MachineReadable = true });
}
