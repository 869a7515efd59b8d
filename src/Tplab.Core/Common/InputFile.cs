using System.Globalization;
using System.Text;

namespace Tplab.Common;

/// <summary>
/// The one reader of every file a user gives tplab (a plan, a body, a targets file, a baseline, a report, a saved
/// watch, a summary.json): bounded in size and never blocked. A folder is "a folder, not a file"; a FIFO, a device or a
/// socket (<c>/dev/zero</c>, a pipe with no writer) is refused before it is opened, since its end may never come; a
/// regular file is read up to its <see cref="InputLimit"/> and no further, whatever its size claims. Every refusal is
/// one usage line (exit 2) naming the input and, for the size, the limit and how to raise it.
/// </summary>
public static class InputFile
{
    /// <summary>The environment variable that raises every raisable limit to this many MiB.</summary>
    public const string RaiseVariable = "TPLAB_MAX_INPUT_MIB";

    /// <summary>The file's bytes, at most <paramref name="limit"/>'s; <paramref name="what"/> names the input in errors (<c>--plan</c>, <c>the targets file</c>).</summary>
    public static byte[] ReadBytes(string path, string what, InputLimit limit)
    {
        ArgumentNullException.ThrowIfNull(limit);
        using var stream = Open(path, what);
        var max = limit.Bytes;
        using var buffer = new MemoryStream();
        var chunk = new byte[1 << 16];
        try
        {
            int read;
            while ((read = stream.Read(chunk, 0, (int)Math.Min(chunk.Length, max + 1 - buffer.Length))) > 0)
            {
                buffer.Write(chunk, 0, read);
                if (buffer.Length > max)
                {
                    throw limit.TooLarge(what, path);
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw TplabException.Usage($"{what} {path}: {e.Message}");
        }
        return buffer.ToArray();
    }

    /// <summary>The file's text (UTF-8 unless a byte-order mark says otherwise, as File.ReadAllText reads it), at most <paramref name="limit"/>'s bytes.</summary>
    public static string ReadText(string path, string what, InputLimit limit)
    {
        var bytes = ReadBytes(path, what, limit);
        using var reader = new StreamReader(new MemoryStream(bytes), Encoding.UTF8, detectEncodingFromByteOrderMarks: true);
        return reader.ReadToEnd();
    }

    /// <summary>
    /// The file opened for reading, for a reader that bounds what it reads itself (a trace read by TraceEvent): a
    /// regular file, never a folder, a FIFO or a device.
    /// </summary>
    public static FileStream Open(string path, string what)
    {
        ArgumentNullException.ThrowIfNull(path);
        if (path.Length == 0)
        {
            throw TplabException.Usage($"{what}: the path is empty; give a file");
        }
        if (Directory.Exists(path))
        {
            throw TplabException.Usage($"{what} {path}: is a folder, not a file");
        }
        if (!File.Exists(path))
        {
            throw TplabException.Usage($"{what} {path}: no such file");
        }
        if (FileKind.IsSpecial(path))
        {
            throw TplabException.Usage($"{what} {path}: is not a regular file (a FIFO, a device or a socket, whose end may never come); give a file");
        }
        try
        {
            return new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, 1 << 16);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw TplabException.Usage($"{what} {path}: {e.Message}");
        }
    }

    internal static string Size(long bytes) => bytes % (1 << 20) == 0
        ? string.Create(CultureInfo.InvariantCulture, $"{bytes >> 20} MiB")
        : string.Create(CultureInfo.InvariantCulture, $"{bytes >> 10} KiB");
}

/// <summary>The most bytes tplab reads as one kind of input; <see cref="Raisable"/> limits yield to <see cref="InputFile.RaiseVariable"/>.</summary>
public sealed record InputLimit(string Name, long DefaultBytes, bool Raisable = true)
{
    public static readonly InputLimit Plan = new("a plan", 1 << 20, Raisable: false);
    public static readonly InputLimit ScanConfig = new("a scan config", 1 << 20, Raisable: false);
    public static readonly InputLimit Targets = new("a targets file", 16L << 20);
    public static readonly InputLimit Body = new("a request body", 64L << 20);
    public static readonly InputLimit Baseline = new("a baseline", 64L << 20);
    public static readonly InputLimit Summary = new("a summary.json", 64L << 20);
    public static readonly InputLimit Report = new("a scan report", 256L << 20);
    public static readonly InputLimit ScanCache = new("a scan cache", 256L << 20);
    public static readonly InputLimit SavedWatch = new("a saved watch", 256L << 20);
    public static readonly InputLimit IntervalLog = new("an interval log", 256L << 20);
    public static readonly InputLimit Marker = new("a marker file", 64 << 10, Raisable: false);
    public static readonly InputLimit Solution = new("a solution file", 16L << 20);
    public static readonly InputLimit RuntimeConfig = new("a runtimeconfig.json", 4L << 20);
    public static readonly InputLimit GlobalJson = new("a global.json", 1 << 20, Raisable: false);

    /// <summary>The most the variable can raise a limit to: one array holds the bytes.</summary>
    public const long MaxMib = 2047;

    /// <summary>The one line for <paramref name="what"/> <paramref name="path"/> holding more than <see cref="Bytes"/>.</summary>
    public TplabException TooLarge(string what, string path) => TplabException.Usage(
        $"{what} {path}: larger than {InputFile.Size(Bytes)}, the most tplab reads as {Name}"
        + (Raisable ? $" (set {InputFile.RaiseVariable} to read more)" : ""));

    /// <summary>The limit now: the default, or <see cref="InputFile.RaiseVariable"/>'s MiB when that is larger and this limit yields to it.</summary>
    public long Bytes => Raised(Environment.GetEnvironmentVariable(InputFile.RaiseVariable));

    /// <summary>The limit when the variable holds <paramref name="variable"/>: a whole number of MiB raises a raisable limit, never lowers it.</summary>
    public long Raised(string? variable) => Raisable
        && long.TryParse(variable, NumberStyles.None, CultureInfo.InvariantCulture, out var mib)
        && mib is > 0 and <= MaxMib && mib << 20 > DefaultBytes
            ? mib << 20
            : DefaultBytes;
}
