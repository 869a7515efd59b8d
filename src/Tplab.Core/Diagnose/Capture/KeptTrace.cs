using System.Globalization;
using Tplab.Common;

namespace Tplab.Diagnose.Capture;

/// <summary>
/// The file <c>--keep-trace</c> names, reserved before the capture: a hidden temporary file beside it is created at once,
/// so a path that cannot be written fails in one line, naming the user's path, before any work; after the capture the
/// trace is copied into it and renamed over the path (written whole). Disposing without keeping removes the temporary file.
/// </summary>
public sealed class KeptTrace : IDisposable
{
    private readonly string _temp;
    private bool _done;

    private KeptTrace(string path, string temp)
    {
        Path = path;
        _temp = temp;
    }

    /// <summary>The path as the user gave it.</summary>
    public string Path { get; }

    /// <summary>
    /// The folder <paramref name="path"/> would be written in; a <see cref="TplabException"/> with exit 8 when the path
    /// is a folder or its folder does not exist (checked before anything else, without writing).
    /// </summary>
    public static string Check(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        string full;
        try
        {
            full = System.IO.Path.GetFullPath(path);
        }
        catch (Exception e) when (e is ArgumentException or NotSupportedException or PathTooLongException)
        {
            throw Failed(path, e.Message);
        }
        if (Directory.Exists(full))
        {
            throw Failed(path, "it is a folder");
        }
        var folder = System.IO.Path.GetDirectoryName(full) ?? ".";
        return Directory.Exists(folder) ? folder : throw Failed(path, $"the folder '{folder}' does not exist");
    }

    /// <summary>Reserves <paramref name="path"/> by creating the temporary file beside it; a <see cref="TplabException"/> with exit 8 when it cannot.</summary>
    public static KeptTrace Reserve(string path)
    {
        var folder = Check(path);
        var full = System.IO.Path.GetFullPath(path);
        var temp = System.IO.Path.Combine(folder, string.Create(CultureInfo.InvariantCulture, $".{System.IO.Path.GetFileName(full)}.{Environment.ProcessId}.{Guid.NewGuid():N}.tmp"));
        try
        {
            using (new FileStream(temp, FileMode.CreateNew, FileAccess.Write, FileShare.None))
            {
            }
        }
        catch (UnauthorizedAccessException)
        {
            throw Failed(path, $"access to the folder '{folder}' is denied");
        }
        catch (IOException e)
        {
            throw Failed(path, e.Message.Replace(temp, path, StringComparison.Ordinal));
        }
        return new KeptTrace(path, temp);
    }

    /// <summary>Copies <paramref name="nettrace"/> over the reserved path; the reason in one line when it cannot (the disk filled meanwhile), else null.</summary>
    public string? Keep(string nettrace)
    {
        ObjectDisposedException.ThrowIf(_done, this);
        _done = true;
        try
        {
            File.Copy(nettrace, _temp, overwrite: true);
            File.Move(_temp, System.IO.Path.GetFullPath(Path), overwrite: true);
            return null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            TryDelete();
            return $"could not write --keep-trace {Path}: {e.Message.Replace(_temp, Path, StringComparison.Ordinal)}";
        }
    }

    public void Dispose()
    {
        if (!_done)
        {
            _done = true;
            TryDelete();
        }
    }

    private void TryDelete()
    {
        try
        {
            File.Delete(_temp);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // A hidden .tmp file beside the path is all that can be left.
        }
    }

    private static TplabException Failed(string path, string why) => new(ExitCodes.OutputFailed, $"could not write --keep-trace {path}: {why}");
}
