using Tplab.Common;
using Tplab.Load.Engine;

namespace Tplab.Load.Formats;

/// <summary>
/// Writes one run in several formats. Files are opened before the load starts, so an unwritable path fails in a
/// second, not after a ten-minute run. Per-request formats (csv, hlog) stream: as an <see cref="IRecordSink"/> this
/// writes each record as it arrives, so nothing accumulates in memory. Each file is written whole (<see cref="AtomicFile"/>):
/// it appears under its name when its format is complete, never half-written. Once the run is over, one failing
/// format never stops the others.
/// </summary>
public sealed class CompositeReportWriter : IRecordSink, IDisposable
{
    private readonly List<Target> _targets = [];
    private bool _streamed;

    private CompositeReportWriter()
    {
    }

    /// <summary>Opens every file output now; throws an output error (exit 8) naming the first that cannot be written.</summary>
    /// <param name="outputs">The formats and their paths (null: <paramref name="stdout"/>).</param>
    /// <param name="stdout">Where outputs without a path go.</param>
    /// <param name="labels">The request templates' labels, for per-request rows (null: one template).</param>
    public static CompositeReportWriter Open(IEnumerable<ReportOutput> outputs, TextWriter stdout, IReadOnlyList<string>? labels = null)
    {
        ArgumentNullException.ThrowIfNull(outputs);
        var composite = new CompositeReportWriter();
        try
        {
            foreach (var output in outputs)
            {
                var format = output.Format is CsvFormat csv && labels is not null ? csv.WithLabels(labels) : output.Format;
                if (output.Path is null)
                {
                    composite._targets.Add(new Target(output, format, stdout, null));
                    continue;
                }
                try
                {
                    var file = AtomicFile.Create(output.Path);
                    composite._targets.Add(new Target(output, format, file.Writer, file));
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException or NotSupportedException or ArgumentException)
                {
                    throw new TplabException(ExitCodes.OutputFailed, $"cannot write {output.Path}: {e.Message}", e);
                }
            }
            return composite;
        }
        catch
        {
            composite.Dispose();
            throw;
        }
    }

    /// <summary>Whether stdout's reader went away (<c>tplab load … | head -1</c>): not a failure to report, the files are still written.</summary>
    public bool OutputClosed { get; private set; }

    /// <inheritdoc />
    public bool WantsRecords => _targets.Any(t => t.Format is IRecordFormat);

    /// <inheritdoc />
    public void Begin(DateTimeOffset startedAt)
    {
        _streamed = true;
        foreach (var target in _targets)
        {
            if (target.Format is IRecordFormat records)
            {
                Guard(target, () => target.Records = records.Open(target.Writer, startedAt));
            }
        }
    }

    /// <inheritdoc />
    public void Write(in RequestRecord record)
    {
        foreach (var target in _targets)
        {
            if (target.Records is { } records && target.Failure is null)
            {
                var r = record;
                Guard(target, () => records.Write(r));
            }
        }
    }

    /// <summary>Writes every output not streamed already, then puts each file in place; returns one line per output that failed.</summary>
    public IReadOnlyList<string> WriteAll(LoadResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var failures = new List<string>();
        foreach (var target in _targets)
        {
            if (target.Records is { } records)
            {
                Guard(target, records.Complete);
            }
            else if (!(_streamed && target.Format is IRecordFormat))
            {
                Guard(target, () => LoadFormats.Write(target.Format, result, target.Writer));
            }
            Guard(target, () =>
            {
                target.Writer.Flush();
                target.File?.Commit();
            });
            if (target.Failure is not null && !target.Closed)
            {
                failures.Add($"could not write {target.Output}: {target.Failure}");
            }
            OutputClosed |= target.Closed;
        }
        return failures;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        foreach (var target in _targets)
        {
            // Deletes the temporary file of a format that was never completed; a committed file stays.
            target.File?.Dispose();
        }
        _targets.Clear();
    }

    private static void Guard(Target target, Action write)
    {
        if (target.Failure is not null)
        {
            return;
        }
        try
        {
            write();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException or ArgumentException or ObjectDisposedException)
        {
            target.Failure = e.Message;
            target.Closed = target.File is null && ClosedPipe.Is(e);
        }
    }

    private sealed class Target(ReportOutput output, ILoadFormat format, TextWriter writer, AtomicFile? file)
    {
        public ReportOutput Output { get; } = output;

        public ILoadFormat Format { get; } = format;

        public TextWriter Writer { get; } = writer;

        public AtomicFile? File { get; } = file;

        public string? Failure { get; set; }

        public bool Closed { get; set; }

        public IRecordWriter? Records { get; set; }
    }
}
