using System.Globalization;
using System.Net.Sockets;
using Tplab.Common;

namespace Tplab.Processes;

/// <summary>
/// The ways attaching to a .NET process fails, each as one line and its documented exit code (docs/exit-codes.md).
/// The one place permission errors are recognised, for watch, diagnose and ps alike.
/// </summary>
public static class AttachErrors
{
    /// <summary>Whether <paramref name="e"/> (or an inner exception) is the OS refusing access to the socket.</summary>
    public static bool IsPermissionDenied(Exception e)
    {
        for (Exception? x = e; x is not null; x = x.InnerException)
        {
            if (x is UnauthorizedAccessException
                || (x is SocketException s && s.SocketErrorCode == SocketError.AccessDenied)
                || x.Message.Contains("Permission denied", StringComparison.OrdinalIgnoreCase))
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>Exit 6: the diagnostic socket refused tplab.</summary>
    public static TplabException PermissionDenied(int processId, Exception? inner = null) =>
        new(ExitCodes.PermissionDenied,
            $"permission denied on the diagnostic socket of process {Id(processId)} ({ProcessFiles.Name(processId)}): run tplab as the user that runs the process ({ProcessFiles.Owner(processId)}), or as root",
            inner);

    /// <summary>Exit 7 when the process is gone, else exit 5: it closed its diagnostic connection.</summary>
    public static TplabException Gone(int processId, string during, Exception? inner = null) =>
        StillAlive(processId)
            ? new TplabException(ExitCodes.NoProcess, $"process {Id(processId)} closed its diagnostic connection {during} ({inner?.Message ?? "stream ended"})", inner)
            : new TplabException(ExitCodes.ProcessExited, $"process {Id(processId)} exited {during}", inner);

    /// <summary>Exit 5: no socket where tplab looked; says why it most likely is so.</summary>
    public static TplabException NoSocket(int processId, Exception? inner = null)
    {
        var name = ProcessFiles.Name(processId);
        var where = string.Join(", ", DiagnosticSocket.Places(processId).Select(p => p.Folder).Distinct());
        return RuntimeVersion.HasCoreClr(processId) is false
            ? new TplabException(ExitCodes.NoProcess, $"process {Id(processId)} ({name}) is not a .NET process (it does not load libcoreclr)", inner)
            : new TplabException(ExitCodes.NoProcess,
                $"process {Id(processId)} ({name}) publishes no .NET diagnostic socket (looked in {where}): DOTNET_EnableDiagnostics=0, a container whose /tmp tplab cannot reach, or not a .NET process", inner);
    }

    // The stream closes while the kernel tears the process down, a moment before /proc shows it gone: give it a second.
    private static bool StillAlive(int processId)
    {
        for (var i = 0; i < 20 && ProcessFiles.IsAlive(processId); i++)
        {
            Thread.Sleep(50);
        }
        return ProcessFiles.IsAlive(processId);
    }

    private static string Id(int processId) => processId.ToString(CultureInfo.InvariantCulture);
}
