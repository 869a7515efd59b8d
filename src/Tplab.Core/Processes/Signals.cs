using System.Runtime.InteropServices;

namespace Tplab.Processes;

/// <summary>The signals .NET cannot send by itself: SIGTERM, the polite "please stop" (Process.Kill is SIGKILL), and any signal to a whole process group.</summary>
internal static class Signals
{
    private const int SigTerm = 15;
    private const int SigKill = 9;

    /// <summary>Asks <paramref name="processId"/> to stop (SIGTERM), with its whole process group when it leads one; false when it is gone.</summary>
    public static bool Terminate(int processId, bool group = false) =>
        group ? Kill(-processId, SigTerm) == 0 | Kill(processId, SigTerm) == 0 : Kill(processId, SigTerm) == 0;

    /// <summary>Kills the process group <paramref name="groupId"/> (SIGKILL to every member); false when it has none.</summary>
    public static bool KillGroup(int groupId) => groupId > 1 && Kill(-groupId, SigKill) == 0;

    // DllImport rather than LibraryImport: the generated form needs unsafe code enabled for the whole library.
    [DllImport("libc", EntryPoint = "kill")]
    [DefaultDllImportSearchPaths(DllImportSearchPath.SafeDirectories)]
    private static extern int Kill(int pid, int signal);
}
