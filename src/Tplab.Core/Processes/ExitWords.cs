namespace Tplab.Processes;

/// <summary>How a child process ended, in words a user reads in an error message.</summary>
public static class ExitWords
{
    /// <summary>
    /// An exit code in words: a shell's 126/127 (cannot run, not found), 128+N for a process ended by signal N
    /// (as a shell and .NET report it), else the code.
    /// </summary>
    public static string Describe(int? code) => code switch
    {
        null => "exited",
        127 => "exited with code 127 (command not found)",
        126 => "exited with code 126 (the command cannot be run: not executable?)",
        > 128 and < 160 => $"was killed by signal {(code - 128).Value.ToString(System.Globalization.CultureInfo.InvariantCulture)}{SignalName(code.Value - 128)}",
        _ => $"exited with code {code.Value.ToString(System.Globalization.CultureInfo.InvariantCulture)}",
    };

    private static string SignalName(int signal) => signal switch
    {
        2 => " (SIGINT)", 6 => " (SIGABRT)", 9 => " (SIGKILL)", 11 => " (SIGSEGV)", 15 => " (SIGTERM)", _ => "",
    };
}
