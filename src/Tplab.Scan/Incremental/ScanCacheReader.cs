namespace Tplab.Scan.Incremental;

/// <summary>
/// The scan cache's reader as a scan runs it on a file, for the fuzzer (bench/fuzz, reader <c>scan-cache</c>): the file
/// read whole and checked, and the result rebuilt from it. Any damage is a reason (a full scan), never an exception.
/// </summary>
public static class ScanCacheReader
{
    /// <summary>Null when <paramref name="file"/> holds a usable cache (its result rebuilt), else why a scan would not use it.</summary>
    public static string? Check(string file)
    {
        var (cache, problem) = ScanCache.Read(file);
        if (cache is null)
        {
            return problem;
        }
        _ = cache.Result.ToResult(TimeSpan.Zero).Findings.Sum(f => f.Roots.Count + f.Chain.Count + f.Root.Title.Length);
        return null;
    }
}
