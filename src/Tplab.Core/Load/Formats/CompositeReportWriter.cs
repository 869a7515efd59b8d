using Tplab.Common;

namespace Tplab.Load.Formats;

/// <summary>
/// Writes one result in several formats. Files are opened before the load starts, so an unwritable path
/// fails in a second, not after a ten-minute run; once the run is over, one failing format never stops the others.
/// Each file is written whole (<see cref="AtomicFile"/>): it appears when its format is complete, never half-written.
/// </summary>
public sealed class CompositeReportWriter : IDisposable
{
    private readonly List<(ReportOutput Output, TextWriter Writer, AtomicFile? File)> _targets = [];

    private CompositeReportWriter()
    {
    }

    /// <summary>Opens every file output now; throws an output error (exit 8) naming the first that cannot be written.</summary>
    public static CompositeReportWriter Open(IEnumerable<ReportOutput> outputs, TextWriter stdout)
    {
        ArgumentNullException.ThrowIfNull(outputs);
        var composite = new CompositeReportWriter();
        try
        {
            foreach (var output in outputs)
            {
                if (output.Path is null)
                {
                    composite._targets.Add((output, stdout, null));
                    continue;
                }
                try
                {
                    var file = AtomicFile.Create(output.Path);
                    composite._targets.Add((output, file.Writer, file));
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

    /// <summary>Writes every output; returns one line per output that failed (empty when all were written).</summary>
    public IReadOnlyList<string> WriteAll(LoadResult result)
    {
        var failures = new List<string>();
        foreach (var (output, writer, file) in _targets)
        {
            try
            {
                LoadFormats.Write(output.Format, result, writer);
                writer.Flush();
                file?.Commit();
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException or ArgumentException)
            {
                failures.Add($"could not write {output}: {e.Message}");
            }
        }
        return failures;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        foreach (var (_, _, file) in _targets)
        {
            // Deletes the temporary file of a format that was never completed; a committed file stays.
            file?.Dispose();
        }
        _targets.Clear();
    }
}
