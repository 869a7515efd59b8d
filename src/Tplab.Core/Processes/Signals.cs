using System.Runtime.InteropServices;

namespace Tplab.Processes;

/// <summary>The one POSIX signal .NET cannot send by itself: SIGTERM, the polite "please stop" (Process.Kill is SIGKILL).</summary>
internal static class Signals
{
    private const int SigTerm = 15;

    /// <summary>Asks <paramref name="processId"/> to stop (SIGTERM); false when it is gone.</summary>
    public static bool Terminate(int processId) => Kill(processId, SigTerm) == 0;

    // DllImport rather than LibraryImport: the generated form needs unsafe code enabled for the whole library.
    [DllImport("libc", EntryPoint = "kill")]
    [DefaultDllImportSearchPaths(DllImportSearchPath.SafeDirectories)]
    private static extern int Kill(int pid, int signal);
}
