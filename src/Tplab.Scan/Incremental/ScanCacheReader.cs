namespace Tplab.Scan.Incremental;

/// <summary>
/// The scan cache's reader as a scan runs it on a file, for the fuzzer (bench/fuzz, readers <c>scan-cache-seal</c> and
/// <c>scan-cache</c>): the file read whole, its seal and shape checked, and the result rebuilt from it. Any damage is a
/// reason (a full scan), never an exception. The fuzzer's key is fixed, so a mutated cache can be sealed and the reader
/// behind the seal reached.
/// </summary>
public static class ScanCacheReader
{
    private static readonly byte[] Key = new byte[32];

    /// <summary>Null when <paramref name="file"/> (the whole file: envelope, seal, cache) holds a usable cache under the fuzzer's key, else why not.</summary>
    public static string? Check(string file) => Rebuild(ScanCache.Read(file, Key));

    /// <summary>The same for a cache's JSON alone, sealed first with the fuzzer's key.</summary>
    public static string? CheckPayload(string file)
    {
        var sealedFile = file + ".sealed";
        File.WriteAllBytes(sealedFile, CacheSeal.Envelope(Key, File.ReadAllBytes(file)));
        return Rebuild(ScanCache.Read(sealedFile, Key));
    }

    private static string? Rebuild((ScanCacheFile? Cache, string? Problem) read)
    {
        if (read.Cache is null)
        {
            return read.Problem;
        }
        _ = read.Cache.Result.ToResult(TimeSpan.Zero).Findings.Sum(f => f.Roots.Count + f.Chain.Count + f.Root.Title.Length);
        // The walks as an incremental scan reads them before it looks at the code.
        _ = read.Cache.Walks?.Records().Sum(r => r.Order.Count + r.Hits.Sum(h => h.Way.Count) + r.Unknown.Count + r.Depends.Count);
        _ = read.Cache.Walks?.Views.ToDictionary(v => (v.Root, v.Site)).Count + read.Cache.Walks?.RootSet?.Factories.ToDictionary(f => f.Service).Count;
        return null;
    }
}
