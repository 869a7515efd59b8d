using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;

namespace Tplab.Processes;

/// <summary>
/// Starts a child in a session (and process group) of its own, so that a signal sent to tplab's whole group or session
/// (<c>timeout</c>, a CI runner's cancel, <c>kill -- -PGID</c>, Ctrl+C) reaches tplab alone: tplab then stops its
/// children in order and reports the run as interrupted. A child that has no cleanup to do also gets the kernel's
/// parent-death signal (SIGKILL, <c>PR_SET_PDEATHSIG</c> through util-linux's <c>setpriv</c>), so it ends with tplab even
/// when no watcher survives. The kernel sends that signal when the <em>thread</em> that forked the child ends, so such
/// children are forked from one thread that lives as long as tplab, never from a pool thread that may retire.
/// Where <c>setsid</c> or <c>setpriv</c> is missing, the child starts as before, in tplab's group (its stdin pipe and
/// the watchdogs still end it when tplab ends).
/// </summary>
internal static class OwnSession
{
    // Runs after setpriv has set the parent-death signal: if tplab died before that, the child was already orphaned and
    // would never get the signal; $PPID then no longer names tplab, and the child does not start.
    private const string CheckParent = "[ \"$PPID\" = \"$1\" ] || exit 137; shift; exec \"$@\"";

    private static readonly string? Setsid = OnPath("setsid");
    private static readonly BlockingCollection<(Process Process, TaskCompletionSource Started)> Requests = [];
    private static readonly Lazy<Thread> Forker = new(() =>
    {
        var thread = new Thread(Fork) { IsBackground = true, Name = "tplab child starter" };
        thread.Start();
        return thread;
    });

    /// <summary>util-linux's setpriv (sets the parent-death signal, then execs), or null when it is missing.</summary>
    public static string? Setpriv { get; } = OnPath("setpriv");

    /// <summary>Whether children can have a session of their own here.</summary>
    public static bool Available => Setsid is not null;

    /// <summary>
    /// Rewrites <paramref name="info"/> so its program runs in a session of its own (same pid: <c>setsid</c> and
    /// <c>setpriv</c> exec, they do not fork), with SIGKILL on tplab's death when <paramref name="dieWithTplab"/>.
    /// The program is resolved first, so a missing one fails as <see cref="Process.Start()"/> would.
    /// </summary>
    public static bool Prepare(ProcessStartInfo info, bool dieWithTplab)
    {
        if (Setsid is null)
        {
            return false;
        }
        var program = Resolve(info.FileName, info.WorkingDirectory)
            ?? throw new System.ComponentModel.Win32Exception(2, "No such file or directory");
        if (!OperatingSystem.IsWindows() && (File.GetUnixFileMode(program) & (UnixFileMode.UserExecute | UnixFileMode.GroupExecute | UnixFileMode.OtherExecute)) == 0)
        {
            throw new System.ComponentModel.Win32Exception(13, "Permission denied");
        }
        var prefix = new List<string> { "--" };
        if (dieWithTplab && Setpriv is not null)
        {
            prefix.AddRange([Setpriv, "--pdeathsig", "KILL", "--", "/bin/sh", "-c", CheckParent, "tplab-child", Environment.ProcessId.ToString(CultureInfo.InvariantCulture)]);
        }
        prefix.Add(program);
        for (var i = prefix.Count - 1; i >= 0; i--)
        {
            info.ArgumentList.Insert(0, prefix[i]);
        }
        info.FileName = Setsid;
        return true;
    }

    /// <summary>
    /// Starts <paramref name="process"/> from the one long-lived thread (see the class summary); an exception of
    /// <see cref="Process.Start()"/> is rethrown here.
    /// </summary>
    public static void Start(Process process)
    {
        if (Thread.CurrentThread == Forker.Value)
        {
            process.Start();
            return;
        }
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Requests.Add((process, started));
        started.Task.GetAwaiter().GetResult();
    }

    private static void Fork()
    {
        foreach (var (process, started) in Requests.GetConsumingEnumerable())
        {
            try
            {
                process.Start();
                started.TrySetResult();
            }
            catch (Exception e)
            {
                started.TrySetException(e);
            }
        }
    }

    private static string? Resolve(string file, string workingDirectory)
    {
        if (file.Contains('/', StringComparison.Ordinal))
        {
            var full = Path.IsPathRooted(file) ? file : Path.GetFullPath(file, string.IsNullOrEmpty(workingDirectory) ? Environment.CurrentDirectory : workingDirectory);
            return File.Exists(full) ? full : null;
        }
        return OnPath(file);
    }

    private static string? OnPath(string name) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "/usr/local/bin:/usr/bin:/bin")
            .Split(':', StringSplitOptions.RemoveEmptyEntries)
            .Select(dir => Path.Combine(dir, name))
            .FirstOrDefault(File.Exists);
}
