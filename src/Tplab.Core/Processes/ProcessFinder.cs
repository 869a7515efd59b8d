using System.Globalization;
using Tplab.Common;

namespace Tplab.Processes;

/// <summary>
/// Finds the .NET processes tplab can attach to: those that publish a diagnostic socket (in tplab's /tmp, or for root
/// in another mount namespace through /proc/PID/root) and belong to this user (root: anyone).
/// </summary>
public static class ProcessFinder
{
    /// <summary>The process's name as people call it: the app's dll for <c>dotnet app.dll</c>, else the executable's name.</summary>
    public static string AppName(int processId)
    {
        var args = ProcessFiles.CommandLine(processId);
        if (args.Count > 1 && Path.GetFileNameWithoutExtension(args[0]) == "dotnet")
        {
            var dll = args.Skip(1).FirstOrDefault(a => a.EndsWith(".dll", StringComparison.OrdinalIgnoreCase));
            if (dll is not null)
            {
                return Path.GetFileNameWithoutExtension(dll);
            }
        }
        return args.Count > 0 ? Path.GetFileName(args[0]) : ProcessFiles.Name(processId);
    }

    /// <summary>Every .NET process this user can attach to, by ascending pid (tplab itself excluded).</summary>
    public static IReadOnlyList<int> DotNetProcesses()
    {
        var self = Environment.ProcessId;
        return [.. ProcessFiles.AllProcessIds().Where(p => p != self && ProcessFiles.IsAlive(p) && DotNetProcess.CanAttach(p) && DiagnosticSocket.Find(p) is not null)];
    }

    /// <summary>The one .NET process called <paramref name="name"/> (executable, comm or app dll name); a usage-style error (exit 5) for none or several.</summary>
    public static TargetFacts ByName(string name)
    {
        var matches = DotNetProcesses().Where(p => Matches(p, name)).ToList();
        return matches.Count switch
        {
            1 => DotNetProcess.Inspect(matches[0]),
            0 => throw new TplabException(ExitCodes.NoProcess, $"no .NET process named '{name}' that tplab can attach to (tplab ps lists them)"),
            _ => throw new TplabException(ExitCodes.NoProcess,
                $"{matches.Count.ToString(CultureInfo.InvariantCulture)} .NET processes are named '{name}' (pids {string.Join(", ", matches.Select(p => p.ToString(CultureInfo.InvariantCulture)))}): give the PID instead"),
        };
    }

    /// <summary>Every .NET process called <paramref name="name"/> that this user can attach to, by ascending pid (none is no error).</summary>
    public static IReadOnlyList<int> AllByName(string name) => [.. DotNetProcesses().Where(p => Matches(p, name))];

    private static bool Matches(int processId, string name) =>
        string.Equals(AppName(processId), name, StringComparison.Ordinal)
        || string.Equals(ProcessFiles.Name(processId), name, StringComparison.Ordinal);
}
