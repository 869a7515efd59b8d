using System.Globalization;
using Tplab.Scan.Findings;

namespace Tplab.Scan.Incremental;

/// <summary>
/// <c>scan --changed-since REF</c>: the result cut down to the findings whose chain passes through a changed file: the
/// blocking call's file, or any method on the surest chain from any of its entry points (<see cref="Finding.ChainFiles"/>).
/// The analysis itself is the whole solution's, so a change that makes code elsewhere block (a new call into an old
/// helper) is found; what it cannot see is a change outside any chain (a DI registration alone), said in docs/scan.md.
/// </summary>
internal static class ChangedSince
{
    public static ScanResult Filter(ScanResult result, IReadOnlySet<string> changed)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(changed);
        var root = result.Input.Root;
        var full = new Dictionary<string, bool>(StringComparer.Ordinal);
        bool Changed(string relative)
        {
            if (!full.TryGetValue(relative, out var yes))
            {
                yes = full[relative] = changed.Contains(ChangedFiles.Full(root, relative));
            }
            return yes;
        }
        bool Passes(Finding f) => f.ChainFiles.Append(f.Site.File).Any(Changed);
        return result with { Findings = [.. result.Findings.Where(Passes)], Suppressed = [.. result.Suppressed.Where(Passes)] };
    }

    /// <summary>The line that says what was kept: <c>--changed-since main (merge base 1a2b3c4d5e): 3 file(s) changed; 2 of 30 finding(s) pass through them</c>.</summary>
    public static string Line(string reference, string mergeBase, int files, int kept, int all) => string.Create(CultureInfo.InvariantCulture,
        $"tplab scan: --changed-since {reference} (merge base {mergeBase}): {files} file(s) changed; {kept} of {all} finding(s) pass through them");
}
