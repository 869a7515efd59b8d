using System.Globalization;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Scan.Fix.Applying;

/// <summary>
/// <c>--apply</c> and <c>--verify</c>: where the files lie checked by <see cref="ApplyScope"/> (outside the named tree:
/// refused whatever <c>--force</c> says; not tracked and clean in its own git: refused without <c>--force</c>), the
/// files written all or none (<see cref="FixFiles"/>), then the verify command on the written files. When it fails, or
/// tplab is interrupted (Ctrl+C, SIGTERM) while it runs, every file gets its bytes and mode back before tplab exits
/// (1, or 130).
/// </summary>
public static class FixApply
{
    /// <summary>The files of <paramref name="result"/> resolved and contained; the patch names them by these paths.</summary>
    public static async Task<FixResult> ContainAsync(FixResult result, FixOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(options);
        if (result.Files.Count == 0)
        {
            return result;
        }
        var tree = await ApplyScope.TreeAsync(options.Path, cancellationToken).ConfigureAwait(false);
        var files = ApplyScope.Contained(tree, result.Files);
        // A patch in UTF-8 of a file in another encoding is one git apply refuses: neither it nor the write is made.
        foreach (var f in files)
        {
            FixFiles.CheckUtf8(f);
        }
        return result with { Files = files, PatchRoot = tree };
    }

    /// <summary>Writes the contained files of <paramref name="result"/> and runs <c>--verify</c>; the result marked applied.</summary>
    public static async Task<FixResult> ApplyAsync(FixResult result, FixOptions options, IScanProgress progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(progress);
        if (result.Files.Count == 0)
        {
            return result;
        }
        if (!options.Force)
        {
            await ApplyScope.CheckCleanAsync(result.Files, cancellationToken).ConfigureAwait(false);
        }
        cancellationToken.ThrowIfCancellationRequested();
        var tree = result.PatchRoot ?? await ApplyScope.TreeAsync(options.Path, cancellationToken).ConfigureAwait(false);
        string? journal = null;
        try
        {
            // The originals go to the journal before the first file is replaced: a kill from here on is undone by the next run.
            var originals = FixFiles.Write(result.Files, o => journal = FixJournal.Begin(tree, o));
            if (options.Verify is { } verify)
            {
                await VerifyOrRevertAsync(verify, result, originals, progress, cancellationToken).ConfigureAwait(false);
            }
            return result with { Applied = true };
        }
        finally
        {
            if (journal is not null)
            {
                FixJournal.End(journal);
            }
        }
    }

    /// <summary>Restores what a <c>fix --apply</c> killed mid-way left in the tree of <paramref name="options"/> (<see cref="FixJournal"/>).</summary>
    public static async Task RecoverAsync(FixOptions options, IScanProgress progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        FixJournal.Recover(await ApplyScope.TreeAsync(options.Path, cancellationToken).ConfigureAwait(false), progress);
    }

    private static async Task VerifyOrRevertAsync(string verify, FixResult result, IReadOnlyDictionary<string, OriginalFile> originals, IScanProgress progress, CancellationToken cancellationToken)
    {
        progress.Line($"tplab fix: wrote {result.Files.Count} file(s); running --verify: {TerminalText.Escape(verify)}");
        int code;
        try
        {
            code = await VerifyAsync(verify, result.Root, Console.Error, cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            FixFiles.Revert(originals);
            throw new TplabException(ExitCodes.Interrupted, "interrupted while --verify ran: every change was reverted");
        }
        catch
        {
            FixFiles.Revert(originals);
            throw;
        }
        if (code != 0)
        {
            FixFiles.Revert(originals);
            throw new TplabException(ExitCodes.Failed, $"--verify failed (exit {code.ToString(CultureInfo.InvariantCulture)}): every change was reverted");
        }
    }

    /// <summary>
    /// Runs <paramref name="command"/> with /bin/sh in <paramref name="folder"/>, in a process group of its own that
    /// cannot outlive tplab; its output on <paramref name="output"/>, control characters escaped, tplab's guardian lines
    /// left out. Returns once the command has exited (its group is then ended), even when something it started still
    /// holds its output open.
    /// </summary>
    public static async Task<int> VerifyAsync(string command, string folder, TextWriter output, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(output);
        await using var run = await GuardedCommand.StartAsync(command, folder, [], "--verify", cancellationToken).ConfigureAwait(false);
        var gate = new Lock();
        void Show(string line)
        {
            if (!line.StartsWith("tplab-guardian: ", StringComparison.Ordinal))
            {
                lock (gate)
                {
                    output.WriteLine(TerminalText.Escape(line));
                }
            }
        }
        // What it printed before the guardian said it started, then the rest as it comes.
        using (run.Guardian.Follow(Show))
        {
            // The command's exit, not the end of its output: a child the command left behind may hold the pipe.
            return await run.WaitForExitAsync(cancellationToken).ConfigureAwait(false);
        }
    }
}
