using System.Text;
using Tplab.Common;

namespace Tplab.Load.Formats;

/// <summary>
/// Writes one result in several formats. Files are opened before the load starts, so an unwritable path
/// fails in a second, not after a ten-minute run; once the run is over, one failing format never stops the others.
/// </summary>
public sealed class CompositeReportWriter : IDisposable
{
    private readonly List<(ReportOutput Output, TextWriter Writer, bool Owned)> _targets = [];

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
                    composite._targets.Add((output, stdout, false));
                    continue;
                }
                try
                {
                    composite._targets.Add((output, new StreamWriter(output.Path, append: false, new UTF8Encoding(false)), true));
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
        foreach (var (output, writer, _) in _targets)
        {
            try
            {
                LoadFormats.Write(output.Format, result, writer);
                writer.Flush();
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
        foreach (var (_, writer, owned) in _targets)
        {
            if (owned)
            {
                try
                {
                    writer.Dispose();
                }
                catch (IOException)
                {
                    // Already reported by WriteAll's flush; closing cannot add anything useful.
                }
            }
        }
        _targets.Clear();
    }
}
