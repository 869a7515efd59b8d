using System.Globalization;
using Tplab.Common;

namespace Tplab.Processes;

/// <summary>What tplab learned about a process before attaching: its name, its runtime version when readable, and its diagnostic socket.</summary>
public sealed record TargetFacts(int ProcessId, string Name, Version? RuntimeVersion, string? Socket = null);

/// <summary>
/// Checks a process id before attaching (watch, diagnose, ps) and turns each way it can fail into one line and a
/// documented exit code: no such process, not .NET, too old a runtime (5); another user's process (6).
/// </summary>
public static class DotNetProcess
{
    /// <summary>The facts about <paramref name="processId"/>, or a <see cref="TplabException"/> saying why it cannot be attached to.</summary>
    public static TargetFacts Inspect(int processId)
    {
        if (!ProcessFiles.IsAlive(processId))
        {
            throw new TplabException(ExitCodes.NoProcess, $"no process with id {processId.ToString(CultureInfo.InvariantCulture)}");
        }
        // The app's name (MyApi for `dotnet MyApi.dll`), as a trace's command line and ps name it.
        var name = ProcessFinder.AppName(processId);
        if (OwnerMismatch(processId) is { } owner)
        {
            throw new TplabException(ExitCodes.PermissionDenied,
                $"permission denied on the diagnostic socket of process {processId} ({name}): it belongs to uid {owner.Target} and tplab runs as uid {owner.Self}; run tplab as that user, or as root");
        }
        var version = RuntimeVersion.Of(processId);
        if (version is not null && version < RuntimeVersion.EventPipe)
        {
            throw new TplabException(ExitCodes.NoProcess,
                $"process {processId} ({name}) runs .NET {version}: attaching needs EventPipe, which needs .NET Core {RuntimeVersion.EventPipe} or later");
        }
        var socket = DiagnosticSocket.Find(processId) ?? throw AttachErrors.NoSocket(processId);
        return new TargetFacts(processId, name, version, socket);
    }

    /// <summary>Whether tplab may attach to the process: the socket is owner-only, so the same user or root.</summary>
    public static bool CanAttach(int processId) => OwnerMismatch(processId) is null;

    // Root may attach to anyone; everyone else only to their own processes (the socket is srw-------).
    private static (int Target, int Self)? OwnerMismatch(int processId) =>
        ProcessFiles.EffectiveUid(processId) is { } t && ProcessFiles.OwnUid() is { } s && s != 0 && t != s ? (t, s) : null;
}
