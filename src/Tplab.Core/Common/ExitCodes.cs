namespace Tplab.Common;

/// <summary>Process exit codes of the tplab command; documented in docs/exit-codes.md.</summary>
public static class ExitCodes
{
    /// <summary>The command did what was asked.</summary>
    public const int Ok = 0;

    /// <summary>The command ran but what it measured failed (for example every request errored).</summary>
    public const int Failed = 1;

    /// <summary>Bad command line or bad input file.</summary>
    public const int Usage = 2;

    /// <summary>A process tplab needs (target, downstream, PostgreSQL) could not be started.</summary>
    public const int Environment = 3;

    /// <summary>The load target could not be reached at all.</summary>
    public const int Unreachable = 4;

    /// <summary>No such process, or not a .NET process, or its runtime lacks a needed feature.</summary>
    public const int NoProcess = 5;

    /// <summary>Permission denied (for example on a diagnostic socket).</summary>
    public const int PermissionDenied = 6;

    /// <summary>The watched process exited before the end; the data so far was kept.</summary>
    public const int ProcessExited = 7;

    /// <summary>Output could not be written.</summary>
    public const int OutputFailed = 8;

    /// <summary><c>watch --fail-on starving</c>: the pool was starving (the data so far was kept).</summary>
    public const int Starving = 9;

    /// <summary><c>tplab compare --fail-if-worse</c>: B is worse than A beyond the threshold in some scenario.</summary>
    public const int Worse = 10;

    /// <summary><c>tplab scan --fail-on</c>: findings at or above that severity exist (baselined ones do not count).</summary>
    public const int Findings = 11;

    /// <summary>Part of the work could not be done (a project that did not load, a scenario that failed); what was done was kept, and the skipped part named.</summary>
    public const int Partial = 12;

    /// <summary>A load's --threshold failed (k6 uses the same code); the report was still written.</summary>
    public const int ThresholdsFailed = 99;

    /// <summary>Stopped by Ctrl+C or SIGTERM; partial results were kept and marked.</summary>
    public const int Interrupted = 130;

    /// <summary>
    /// The reader of tplab's output went away (<c>tplab watch … | head -n 3</c>): tplab stopped quietly. 128 + SIGPIPE,
    /// the code a shell reports for any program ended by a closed pipe.
    /// </summary>
    public const int OutputClosed = 141;
}
