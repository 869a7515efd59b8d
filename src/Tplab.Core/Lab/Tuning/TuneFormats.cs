using Tplab.Common.Output;

namespace Tplab.Lab.Tuning;

/// <summary>An output format of <c>tplab tune</c> on stdout (the results folder always holds tune.json and tune.html).</summary>
public interface ITuneFormat : IOutputFormat
{
    /// <summary>Writes <paramref name="result"/>.</summary>
    void Write(TuneResult result, TextWriter writer);
}

/// <summary>The catalogue of <c>tplab tune --format</c>: text (the default), json.</summary>
public static class TuneFormats
{
    /// <summary>Every format, text first.</summary>
    public static FormatCatalogue<ITuneFormat> Catalogue { get; } = new(
        new Format("text", "the answer, every trial and the settings to paste", TuneText.Write),
        new Format("json", "tune.json on stdout, progress on stderr (docs/schemas/tune.schema.json)", TuneJson.Write));

    private sealed record Format(string Name, string Description, Action<TuneResult, TextWriter> Writer) : ITuneFormat
    {
        public void Write(TuneResult result, TextWriter writer) => Writer(result, writer);
    }
}
