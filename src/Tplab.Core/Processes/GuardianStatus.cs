using System.Globalization;

namespace Tplab.Processes;

/// <summary>
/// The guardian's status, out of the command's reach: a private folder (mode 700) where the guardian of a
/// <see cref="GuardedCommand"/> writes the command's group id and then its exit status, each file whole (by rename).
/// The output pipe carries only the lines that announce them, which the command could print too.
/// </summary>
internal sealed class GuardianStatus : IDisposable
{
    private readonly DirectoryInfo _folder = Directory.CreateTempSubdirectory("tplab-guardian-");

    /// <summary>The folder the guardian writes to (its argument).</summary>
    public string Folder => _folder.FullName;

    /// <summary>The command's process group, once the guardian has started it.</summary>
    public int? GroupId => Read("started");

    /// <summary>The command's exit code (128 + the signal that killed it), once the guardian has seen it exit.</summary>
    public int? ExitCode => Read("exited");

    private int? Read(string name)
    {
        try
        {
            // A number and a newline, written by the guardian: 16 bytes are more than it ever holds.
            using var file = File.OpenRead(Path.Combine(Folder, name));
            var buffer = new byte[16];
            var read = file.ReadAtLeast(buffer, buffer.Length, throwOnEndOfStream: false);
            return int.TryParse(System.Text.Encoding.ASCII.GetString(buffer, 0, read).Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var value) ? value : null;
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            return null;
        }
    }

    public void Dispose()
    {
        try
        {
            _folder.Delete(recursive: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The guardian's watcher removes it too when tplab's pipe closes; nothing else depends on it.
        }
    }
}
