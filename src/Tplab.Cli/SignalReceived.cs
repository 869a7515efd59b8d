using System.Runtime.InteropServices;

namespace Tplab.Cli;

/// <summary>
/// Whether tplab has received SIGINT or SIGTERM. The same signal sent to tplab's whole process group can end one of its
/// parts first (scan's MSBuild build host shares the group), and that part's failure then reaches the command before
/// the cancellation does: the run was interrupted, not failed, and is reported so. Only observes: System.CommandLine's
/// own handler still turns the signal into cancellation.
/// </summary>
internal static class SignalReceived
{
    private static readonly PosixSignalRegistration[] Registrations =
    [
        PosixSignalRegistration.Create(PosixSignal.SIGINT, _ => Seen = true),
        PosixSignalRegistration.Create(PosixSignal.SIGTERM, _ => Seen = true),
    ];

    private static volatile bool _seen;

    /// <summary>Whether tplab received SIGINT or SIGTERM.</summary>
    public static bool Seen
    {
        get => _seen;
        private set => _seen = value;
    }

    /// <summary>Starts observing (call once, before the command runs).</summary>
    public static void Observe() => GC.KeepAlive(Registrations);
}
