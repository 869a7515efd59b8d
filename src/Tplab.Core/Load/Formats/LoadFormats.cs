using Tplab.Common;
using Tplab.Common.Output;

namespace Tplab.Load.Formats;

/// <summary>The catalogue of <c>--format</c> names: every format is listed here once.</summary>
public static class LoadFormats
{
    /// <summary>Every format, text (the default) first.</summary>
    public static FormatCatalogue<ILoadFormat> Catalogue { get; } = new(
        new TextFormat(), new AbFormat(), new JMeterFormat(), new VegetaFormat(), new SiegeFormat(),
        new JsonFormat(), new CsvFormat(), new HgrmFormat(), new HlogFormat(), new HtmlFormat(), new CrankFormat());

    /// <summary>text.</summary>
    public static ILoadFormat Default => Catalogue.Default;

    /// <summary>The names, comma-separated, for messages and help.</summary>
    public static string Names => Catalogue.Names;

    /// <summary>
    /// The outputs of a run: formats and files pair by position (the i-th <c>--output</c> receives the i-th <c>--format</c>);
    /// a format without a file goes to stdout; a file without a format takes it from its extension (.json, .csv, .hgrm,
    /// .hlog, .txt, .html), and an extension that names none is a usage error. Formats may be comma-separated. At most one
    /// machine-readable format may share stdout with others.
    /// </summary>
    public static IReadOnlyList<ReportOutput> Outputs(IReadOnlyList<string> formats, IReadOnlyList<string> outputs)
    {
        ArgumentNullException.ThrowIfNull(formats);
        ArgumentNullException.ThrowIfNull(outputs);
        var names = formats.SelectMany(f => f.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)).ToList();
        var list = new List<ReportOutput>();
        for (var i = 0; i < Math.Max(names.Count, outputs.Count); i++)
        {
            var path = i < outputs.Count && outputs[i] != "-" ? Placeholders(outputs[i]) : null;
            list.Add(new ReportOutput(Catalogue.Resolve(i < names.Count ? names[i] : null, path, fallback: path is null ? Default : null), path));
        }
        if (list.Count == 0)
        {
            list.Add(new ReportOutput(Default, null));
        }
        if (list.Count(o => o.Path is null) > 1 && list.Any(o => o.Path is null && o.Format.MachineReadable))
        {
            var machine = string.Join(", ", Catalogue.All.Where(f => f.MachineReadable).Select(f => f.Name));
            throw TplabException.Usage($"only one machine-readable format ({machine}) can go to stdout alongside others; give it --output FILE");
        }
        return list;
    }

    /// <summary>
    /// An output path with <c>{host}</c> (this machine's name) and <c>{pid}</c> (this process's id) filled in: each crank
    /// agent's log gets its own name (<c>--output run-{host}-{pid}.hlog</c>), so downloading them all loses none.
    /// </summary>
    public static string Placeholders(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        var host = string.Concat(Environment.MachineName.Select(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '.' ? c : '_'));
        return path.Replace("{host}", host, StringComparison.Ordinal)
            .Replace("{pid}", Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal);
    }

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
