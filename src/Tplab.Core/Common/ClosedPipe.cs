namespace Tplab.Common;

/// <summary>
/// A write to a pipe whose reader has gone (EPIPE), as after <c>tplab watch … | head -n 3</c> once head has its lines.
/// .NET's own Console streams swallow it on Unix; tplab writes stdout through <see cref="OpenStdout"/> when it is not a
/// terminal, so that it shows and the command can stop instead of working on for no one.
/// </summary>
public static class ClosedPipe
{
    private const int Epipe = 32;

    /// <summary>Whether <paramref name="e"/> (or an exception inside it) is a write to a closed pipe.</summary>
    public static bool Is(Exception? e)
    {
        for (; e is not null; e = e.InnerException)
        {
            if (e is IOException io && (io.HResult == Epipe || io.Message.Contains("Broken pipe", StringComparison.Ordinal)))
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>Whether stdout is a pipe or a socket (not a terminal, not a file), as /proc/self/fd/1 says.</summary>
    public static bool StdoutIsPipe()
    {
        try
        {
            return new FileInfo("/proc/self/fd/1").LinkTarget is { } target
                && (target.StartsWith("pipe:", StringComparison.Ordinal) || target.StartsWith("socket:", StringComparison.Ordinal));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>
    /// A writer on file descriptor 1 that throws on a closed pipe (flushed at every write, as Console.Out is). For a
    /// pipe only: on a file, a FileStream writes at its own offset and would overwrite stderr's lines in <c>&gt; log 2&gt;&amp;1</c>.
    /// </summary>
    public static TextWriter OpenStdout()
    {
        var stream = new FileStream(new Microsoft.Win32.SafeHandles.SafeFileHandle(1, ownsHandle: false), FileAccess.Write, bufferSize: 0);
        return new StreamWriter(stream, new System.Text.UTF8Encoding(encoderShouldEmitUTF8Identifier: false), bufferSize: 1 << 14) { AutoFlush = true };
    }
}
