using System.Globalization;
using Spectre.Console;
using Tplab.Common.Output;

namespace Tplab.Watch.Output;

/// <summary>Where a format's records go: the writer (a file or stdout), the terminal for the live view, and the watch's title and interval.</summary>
public sealed record WatchOutputTarget(TextWriter Writer, IAnsiConsole Console, string Title, TimeSpan Interval);

/// <summary>An output format of <c>tplab watch</c>: makes the sink that writes the records of one watch.</summary>
public interface IWatchFormat : IOutputFormat
{
    /// <summary>True when the format draws on the terminal and cannot go to a file (live).</summary>
    bool Terminal => false;

    /// <summary>True when the output is one document written when the watch ends (html), so its file is written whole.</summary>
    bool WrittenWhole => false;

    /// <summary>The sink of one watch.</summary>
    IWatchSink Open(WatchOutputTarget target);
}

/// <summary>The catalogue of <c>tplab watch --format</c>.</summary>
public static class WatchFormats
{
    /// <summary>Every format, live (the default on the terminal) first.</summary>
    public static FormatCatalogue<IWatchFormat> Catalogue { get; } = new(new Live(), new Jsonl(), new Csv(), new Html());

    /// <summary>The records as JSON lines: the format of a file given without a format it can be told by.</summary>
    public static IWatchFormat JsonLines => Catalogue.All[1];

    /// <summary>
    /// The format of a watch: <paramref name="name"/> when given; else, with an output file, the one its extension names
    /// (.csv, .html) or jsonl; else live on the terminal (redrawn in place, or a verdict line per sample when stdout is not one).
    /// </summary>
    public static IWatchFormat Resolve(string? name, string? output) =>
        Catalogue.Resolve(name, output, output is null ? Catalogue.Default : JsonLines);

    private sealed class Live : IWatchFormat
    {
        public string Name => "live";

        public string Description => "the terminal, refreshed in place (a verdict line per sample when not a terminal)";

        public bool Terminal => true;

        public IWatchSink Open(WatchOutputTarget target) =>
            new LiveWatchView(target.Console, $"{target.Title}, every {target.Interval.TotalSeconds.ToString("0.00", CultureInfo.InvariantCulture)} s");
    }

    private sealed class Jsonl : IWatchFormat
    {
        public bool MachineReadable => true;

        public string Name => "jsonl";

        public string Description => "one JSON object per sample, injection and summary (docs/schemas/watch.schema.json)";

        public IReadOnlyList<string> Extensions => [".jsonl", ".json"];

        public IWatchSink Open(WatchOutputTarget target) => new JsonlWatchWriter(target.Writer);
    }

    private sealed class Csv : IWatchFormat
    {
        public bool MachineReadable => true;

        public string Name => "csv";

        public string Description => "one row per sample with the injections since the previous row";

        public IReadOnlyList<string> Extensions => [".csv"];

        public IWatchSink Open(WatchOutputTarget target) => new CsvWatchWriter(target.Writer);
    }

    private sealed class Html : IWatchFormat
    {
        public string Name => "html";

        public string Description => "a page of the pool over time with the verdict, written when the watch ends";

        public IReadOnlyList<string> Extensions => [".html", ".htm"];

        public bool WrittenWhole => true;

        public IWatchSink Open(WatchOutputTarget target) => new HtmlWatchWriter(target.Writer);
    }
}
