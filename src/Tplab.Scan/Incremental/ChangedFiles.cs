using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Scan.Incremental;

/// <summary>
/// The files a pull request changes, for <c>scan --changed-since REF</c>: those that differ between the merge base of
/// REF and HEAD and the working tree (committed on the branch, staged or not), renamed ones under both names, and the
/// untracked files git does not ignore. Asked before anything loads; a folder that is not in a git repository, a ref
/// that does not name a commit, a shallow clone without the merge base, or no merge base at all are one usage line
/// (exit 2) naming what to do, and git missing is exit 3: never a silently wrong answer.
/// </summary>
internal static class ChangedFiles
{
    /// <summary>The changed files' full paths, and the merge base's short hash.</summary>
    public static async Task<(HashSet<string> Files, string MergeBase)> SinceAsync(string folder, string reference, CancellationToken cancellationToken)
    {
        var top = await One(folder, ["rev-parse", "--show-toplevel"], cancellationToken).ConfigureAwait(false)
            ?? throw TplabException.Usage($"--changed-since {reference}: {folder} is not in a git repository");
        if (await One(folder, ["rev-parse", "--verify", "--quiet", "--end-of-options", reference + "^{commit}"], cancellationToken).ConfigureAwait(false) is null)
        {
            throw TplabException.Usage($"--changed-since {reference}: no such commit, branch or tag in {top} (in CI, fetch it first: git fetch origin {reference})");
        }
        var mergeBase = await One(folder, ["merge-base", "--end-of-options", reference, "HEAD"], cancellationToken).ConfigureAwait(false);
        if (mergeBase is null)
        {
            var shallow = await One(folder, ["rev-parse", "--is-shallow-repository"], cancellationToken).ConfigureAwait(false) == "true";
            throw TplabException.Usage(shallow
                ? $"--changed-since {reference}: this is a shallow clone without the merge base of {reference} and HEAD; fetch the history (actions/checkout's fetch-depth: 0, or git fetch --unshallow)"
                : $"--changed-since {reference}: {reference} and HEAD have no common ancestor (or HEAD has no commit yet)");
        }
        var files = new HashSet<string>(StringComparer.Ordinal);
        foreach (var name in await Lines(folder, ["-c", "core.quotePath=false", "diff", "--name-only", "--no-renames", "--end-of-options", mergeBase], cancellationToken).ConfigureAwait(false))
        {
            files.Add(Full(top, name));
        }
        foreach (var name in await Lines(folder, ["-c", "core.quotePath=false", "ls-files", "--others", "--exclude-standard", "--full-name"], cancellationToken).ConfigureAwait(false))
        {
            files.Add(Full(top, name));
        }
        return (files, mergeBase.Length > 10 ? mergeBase[..10] : mergeBase);
    }

    /// <summary>A path as <see cref="SinceAsync"/> names it: full, through symbolic links, so a scanned root reached by a link matches.</summary>
    public static string Full(string folder, string relative) => RealPath.Of(Path.GetFullPath(Path.Combine(folder, relative)));

    private static async Task<string?> One(string folder, IReadOnlyList<string> arguments, CancellationToken cancellationToken)
    {
        var (code, lines) = await Run(folder, arguments, cancellationToken).ConfigureAwait(false);
        return code == 0 && lines.Count > 0 ? lines[0].Trim() : null;
    }

    private static async Task<IReadOnlyList<string>> Lines(string folder, IReadOnlyList<string> arguments, CancellationToken cancellationToken)
    {
        var (code, lines) = await Run(folder, arguments, cancellationToken).ConfigureAwait(false);
        return code == 0 ? [.. lines.Where(l => l.Length > 0)]
            : throw new TplabException(ExitCodes.Environment, $"--changed-since: git {arguments.First(a => !a.StartsWith('-') && !a.Contains('=', StringComparison.Ordinal))} failed in {folder}: {(lines.Count > 0 ? lines[0] : "no message")}");
    }

    private static async Task<(int? Code, IReadOnlyList<string> Lines)> Run(string folder, IReadOnlyList<string> arguments, CancellationToken cancellationToken)
    {
        var (code, lines) = await GitQuery.RunAsync(folder, arguments, cancellationToken).ConfigureAwait(false);
        return code is null ? throw new TplabException(ExitCodes.Environment, "--changed-since needs git, which could not be started (is it installed and on the PATH?)") : (code, lines);
    }
}
