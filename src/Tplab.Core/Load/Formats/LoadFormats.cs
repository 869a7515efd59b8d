using Tplab.Common.Output;

namespace Tplab.Load.Formats;

/// <summary>The catalogue of <c>--format</c> names: every format is listed here once.</summary>
public static class LoadFormats
{
    /// <summary>Every format, text (the default) first.</summary>
    public static FormatCatalogue<ILoadFormat> Catalogue { get; } = new(
        new TextFormat(), new AbFormat(), new JMeterFormat(), new VegetaFormat(), new SiegeFormat(),
        new JsonFormat(), new CsvFormat(), new HgrmFormat(), new HlogFormat(), new HtmlFormat(), new CrankFormat());

    /// <summary>Every format, the default first.</summary>
    public static IReadOnlyList<ILoadFormat> All => Catalogue.All;

    /// <summary>text.</summary>
    public static ILoadFormat Default => Catalogue.Default;

    /// <summary>The names, comma-separated, for messages and help.</summary>
    public static string Names => Catalogue.Names;

    /// <summary>The format called <paramref name="name"/> (case-insensitive); a usage error naming the known ones otherwise.</summary>
    public static ILoadFormat Find(string name) => Catalogue.Find(name);

    /// <summary>Writes <paramref name="result"/> in <paramref name="format"/>.</summary>
    public static void Write(ILoadFormat format, LoadResult result, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(result);
        switch (format)
        {
            case ISummaryFormat summary:
                summary.Write(result.Summary, writer);
                break;
            case IResultFormat whole:
                whole.Write(result, writer);
                break;
            case IRecordFormat records:
                var stream = records.Open(writer, result.StartedAt);
                foreach (var record in result.Records)
                {
                    stream.Write(record);
                }
                stream.Complete();
                break;
            default:
                throw new ArgumentException($"format {format?.Name} writes neither a summary nor records", nameof(format));
        }
    }
}
