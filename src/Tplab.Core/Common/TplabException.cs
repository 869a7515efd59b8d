namespace Tplab.Common;

/// <summary>
/// The one error type of tplab: a user-facing, one-line message and the exit code it maps to.
/// The CLI prints <see cref="Exception.Message"/> alone, never a stack trace.
/// </summary>
public sealed class TplabException : Exception
{
    public TplabException(int exitCode, string message, Exception? inner = null)
        : base(message, inner) => ExitCode = exitCode;

    public TplabException()
        : this(ExitCodes.Failed, "tplab failed")
    {
    }

    public TplabException(string message)
        : this(ExitCodes.Failed, message)
    {
    }

    public TplabException(string message, Exception inner)
        : this(ExitCodes.Failed, message, inner)
    {
    }

    /// <summary>The process exit code for this error (see <see cref="ExitCodes"/>).</summary>
    public int ExitCode { get; }

    public static TplabException Usage(string message) => new(ExitCodes.Usage, message);
}
