using System.Diagnostics;
using System.Text;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Scan.Fix;

/// <summary>
/// Writes a fix into the files, all or none: each file's original bytes are kept, every new file is staged beside
/// its target (<see cref="AtomicFile"/>) before any is renamed over its original, and when a rename fails (or
/// <c>--verify</c>'s command fails) every file already replaced gets its original bytes back. A file keeps its BOM,
/// its line endings (the rewrite writes none of its own) and its permissions. Files with uncommitted changes in git
/// are refused unless forced: the user's unsaved work and the fix must not mix in one diff.
/// </summary>
public static class FixFiles
{
    private const string GitStatus = "git status";

    // A status of the touched files answers in well under a second; a git waiting on a lock must not hold fix forever.
    private static readonly TimeSpan GitTimeout = TimeSpan.FromSeconds(30);

    private static readonly byte[] Bom = [0xEF, 0xBB, 0xBF];

    /// <summary>Writes every file of <paramref name="files"/>; returns the originals (bytes by path) to revert with.</summary>
    public static IReadOnlyDictionary<string, byte[]> Write(IReadOnlyList<FileChange> files)
    {
        ArgumentNullException.ThrowIfNull(files);
        var originals = new Dictionary<string, byte[]>(StringComparer.Ordinal);
        foreach (var f in files)
        {
            try
            {
                originals[f.Path] = File.ReadAllBytes(f.Path);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                throw new TplabException(ExitCodes.OutputFailed, $"cannot read {f.Relative}: {e.Message}; nothing was changed", e);
            }
            var (hasBom, text) = Decode(originals[f.Path]);
            if (text is null)
            {
                throw new TplabException(ExitCodes.OutputFailed, $"{f.Relative} is not UTF-8: tplab fix does not rewrite it; nothing was changed");
            }
            if (!string.Equals(text, f.Before, StringComparison.Ordinal))
            {
                throw new TplabException(ExitCodes.OutputFailed, $"{f.Relative} changed while tplab fix ran; nothing was changed (run it again)");
            }
            if (IsReadOnly(f.Path))
            {
                throw new TplabException(ExitCodes.OutputFailed, $"{f.Relative} is read-only; nothing was changed");
            }
            _ = hasBom;
        }
        var staged = new List<(FileChange File, AtomicFile Staged)>();
        try
        {
            foreach (var f in files)
            {
                var file = AtomicFile.Create(f.Path);
                staged.Add((f, file));
                file.Writer.Write((originals[f.Path].AsSpan().StartsWith(Bom) ? "\uFEFF" : "") + f.After);
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            staged.ForEach(s => s.Staged.Dispose());
            throw new TplabException(ExitCodes.OutputFailed, $"cannot write the fix: {e.Message}; nothing was changed", e);
        }
        var committed = new List<FileChange>();
        try
        {
            foreach (var (f, file) in staged)
            {
                var mode = OperatingSystem.IsWindows() ? default : File.GetUnixFileMode(f.Path);
                file.Commit();
                committed.Add(f);
                if (!OperatingSystem.IsWindows())
                {
                    File.SetUnixFileMode(f.Path, mode);
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            staged.ForEach(s => s.Staged.Dispose());
            Revert(committed.ToDictionary(c => c.Path, c => originals[c.Path], StringComparer.Ordinal));
            throw new TplabException(ExitCodes.OutputFailed, $"cannot write the fix: {e.Message}; every file was restored", e);
        }
        return originals;
    }

    /// <summary>Puts the original bytes back.</summary>
    public static void Revert(IReadOnlyDictionary<string, byte[]> originals)
    {
        ArgumentNullException.ThrowIfNull(originals);
        foreach (var (path, bytes) in originals)
        {
            var temp = path + ".tplab-revert";
            File.WriteAllBytes(temp, bytes);
            File.Move(temp, path, overwrite: true);
        }
    }

    /// <summary>The files among <paramref name="paths"/> that git reports as changed and not committed (none outside a git work tree).</summary>
    public static async Task<IReadOnlyList<string>> UncommittedAsync(string root, IReadOnlyList<string> paths, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(paths);
        if (paths.Count == 0)
        {
            return [];
        }
        var info = new ProcessStartInfo("git") { WorkingDirectory = root };
        foreach (var a in new[] { "status", "--porcelain", "--" }.Concat(paths))
        {
            info.ArgumentList.Add(a);
        }
        ChildProcess git;
        try
        {
            // Through tplab's process runner: its own session, and the kernel's parent-death signal ends it with tplab
            // (even on kill -9); a single short-lived git needs no watchdog shell. Bounded below.
            git = ChildProcess.Start(info, GitStatus, WhenTplabEnds.ChildEndsItself);
        }
        catch (TplabException e) when (e.Message.StartsWith($"could not start {GitStatus} ", StringComparison.Ordinal))
        {
            return []; // no git: nothing to protect
        }
        await using (git.ConfigureAwait(false))
        {
            var lines = new HashSet<string>(StringComparer.Ordinal);
            var gate = new Lock();
            void Keep(string line)
            {
                lock (gate)
                {
                    lines.Add(line);
                }
            }
            git.LineReceived += Keep;
            // Lines printed before the handler was attached are among the recent ones; the set takes each once.
            foreach (var line in git.RecentOutput)
            {
                Keep(line);
            }
            try
            {
                await git.Exited.WaitAsync(GitTimeout, cancellationToken).ConfigureAwait(false);
            }
            catch (TimeoutException)
            {
                throw new TplabException(ExitCodes.Environment,
                    $"git status did not answer within {GitTimeout.TotalSeconds:0} s in {root}, so uncommitted changes cannot be ruled out: nothing was changed (pass --force to write anyway)");
            }
            // Not a work tree (exit 128): nothing to protect. stdout and stderr come together: only status lines name a path.
            lock (gate)
            {
                return git.ExitCode != 0 ? [] : [.. lines.Where(l => l.Length > 3 && l[2] == ' ').Select(l => l[3..].Trim()).Order(StringComparer.Ordinal)];
            }
        }
    }

    /// <summary>Runs <paramref name="command"/> with /bin/sh in <paramref name="root"/> (its output on <paramref name="output"/>); its exit code.</summary>
    public static async Task<int> VerifyAsync(string command, string root, TextWriter output, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(output);
        await using var run = await GuardedCommand.StartAsync(command, root, [], "--verify", cancellationToken).ConfigureAwait(false);
        var gate = new Lock();
        void Show(string line)
        {
            if (!line.StartsWith("tplab-guardian: ", StringComparison.Ordinal))
            {
                lock (gate)
                {
                    output.WriteLine(line);
                }
            }
        }
        // What it printed before the guardian said it started, then the rest as it comes.
        foreach (var line in run.Guardian.RecentOutput)
        {
            Show(line);
        }
        run.Guardian.LineReceived += Show;
        await run.Guardian.Exited.WaitAsync(cancellationToken).ConfigureAwait(false);
        var last = run.Guardian.RecentOutput.LastOrDefault(l => l.StartsWith(GuardedCommand.ExitedPrefix, StringComparison.Ordinal));
        return last is not null && int.TryParse(last[GuardedCommand.ExitedPrefix.Length..], System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var code)
            ? code : run.Guardian.ExitCode ?? 1;
    }

    private static (bool Bom, string? Text) Decode(byte[] bytes)
    {
        var bom = bytes.AsSpan().StartsWith(Bom);
        try
        {
            var text = new UTF8Encoding(false, throwOnInvalidBytes: true).GetString(bytes, bom ? 3 : 0, bytes.Length - (bom ? 3 : 0));
            return (bom, text);
        }
        catch (DecoderFallbackException)
        {
            return (bom, null);
        }
    }

    private static bool IsReadOnly(string path)
    {
        if (File.GetAttributes(path).HasFlag(FileAttributes.ReadOnly))
        {
            return true;
        }
        return !OperatingSystem.IsWindows() && (File.GetUnixFileMode(path) & (UnixFileMode.UserWrite | UnixFileMode.GroupWrite | UnixFileMode.OtherWrite)) == 0;
    }
}
