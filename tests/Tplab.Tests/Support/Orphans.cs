using System.Diagnostics;
using System.Globalization;
using Tplab.Processes;

namespace Tplab.Tests.Support;

/// <summary>
/// tplab started with a marker in its environment, which every process it starts inherits (the target, the user's
/// service and its children, PostgreSQL, the build host): after it ends, a process that still carries the marker is an
/// orphan, wherever it was reparented. Signals go to tplab's whole process group, as timeout, a CI runner or
/// <c>kill -- -PGID</c> send them; tplab, started by the tests in a session of its own, leads that group.
/// </summary>
internal sealed class Orphans
{
    private const string Variable = "TPLAB_TEST_ORPHAN_MARK";

    private readonly string _entry = Variable + "=" + Guid.NewGuid().ToString("N");

    /// <summary>Starts tplab with this marker.</summary>
    public ChildProcess Start(params string[] args) => Start(new Dictionary<string, string>(), args);

    /// <summary>Starts tplab with this marker and <paramref name="environment"/> added to its environment.</summary>
    public ChildProcess Start(IReadOnlyDictionary<string, string> environment, params string[] args)
    {
        var info = TplabCli.StartInfo(args);
        foreach (var (name, value) in environment)
        {
            info.Environment[name] = value;
        }
        info.Environment[Variable] = _entry[(Variable.Length + 1)..];
        return ChildProcess.Start(info, "tplab " + args[0]);
    }

    /// <summary>Sends <paramref name="signal"/> (TERM, INT, KILL) to the process group <paramref name="groupLeader"/> leads.</summary>
    public static void SignalGroup(int groupLeader, string signal)
    {
        Assert.Equal(groupLeader, ProcessFiles.ProcessGroup(groupLeader));
        using var kill = Process.Start("kill", ["-" + signal, "--", "-" + groupLeader.ToString(CultureInfo.InvariantCulture)])!;
        kill.WaitForExit();
    }

    /// <summary>Live processes that carry the marker (tplab itself included while it runs).</summary>
    public IReadOnlyList<int> Marked()
    {
        var found = new List<int>();
        foreach (var pid in ProcessFiles.AllProcessIds())
        {
            try
            {
                if (pid != Environment.ProcessId && ProcessTable.IsAlive(pid)
                    && File.ReadAllText($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/environ").Split('\0').Contains(_entry))
                {
                    found.Add(pid);
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
            }
        }
        return found;
    }

    /// <summary>Waits for tplab to end and for every marked process to be gone; kills what is left (and fails) so no test leaves an orphan.</summary>
    public async Task<int> EndedWithNoneLeftAsync(ChildProcess tplab)
    {
        Assert.True(await Task.WhenAny(tplab.Exited, Task.Delay(TimeSpan.FromSeconds(60))) == tplab.Exited, "tplab did not end");
        var gone = await ProcessTable.EventuallyAsync(() => Marked().Count == 0, TimeSpan.FromSeconds(20));
        var left = Marked().Select(p => $"{p} {string.Join(' ', ProcessFiles.CommandLine(p)).Replace(Environment.NewLine, " ", StringComparison.Ordinal)}").ToList();
        foreach (var pid in Marked())
        {
            ProcessTree.Signal(pid, "KILL");
        }
        Assert.True(gone, $"left behind: {string.Join("; ", left.Select(l => l.Length > 160 ? l[..160] : l))}");
        return tplab.ExitCode ?? -1;
    }
}
