using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using Tplab.Common;

namespace Tplab.Scan.Incremental;

/// <summary>
/// Whether this user's tplab wrote a cache file: an HMAC-SHA256 of the cache's bytes under a key that never leaves the
/// user's own folder. The cache lives beside the code (<c>obj/tplab-scan/</c>) and holds a result that is believed
/// without a scan; a cache that arrives with the code (committed to a pull request, copied from another machine) could
/// otherwise hide every finding in CI, whose inputs' hashes anyone can compute. A file whose seal does not match is a
/// full scan. The key: <c>TPLAB_CACHE_KEY</c> when set (a CI secret, to share caches between machines), else 32 random
/// bytes made once in <c>tplab/cache.key</c> under the user's local application data (mode 600).
/// </summary>
internal static class CacheSeal
{
    public const string KeyVariable = "TPLAB_CACHE_KEY";

    private const int KeyBytes = 32;

    /// <summary>The file's envelope: <c>{"seal":"HEX","cache":{…}}</c>; the seal covers the cache value's exact bytes.</summary>
    private static ReadOnlySpan<byte> SealName => "seal"u8;

    private static ReadOnlySpan<byte> CacheName => "cache"u8;

    /// <summary>This user's key, or why there is none (no home folder, a key file that cannot be made or read).</summary>
    public static (byte[]? Key, string? Problem) Key()
    {
        if (Environment.GetEnvironmentVariable(KeyVariable) is { Length: > 0 } secret)
        {
            return (SHA256.HashData(Encoding.UTF8.GetBytes(secret)), null);
        }
        var data = Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData, Environment.SpecialFolderOption.DoNotVerify);
        if (string.IsNullOrEmpty(data))
        {
            return (null, $"no folder of the user's own to keep the cache's key in (set HOME, or {KeyVariable})");
        }
        var path = Path.Combine(data, "tplab", "cache.key");
        try
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            if (!File.Exists(path))
            {
                Create(path);
            }
            var key = InputFile.ReadBytes(path, "the cache key", InputLimit.Marker);
            return key.Length == KeyBytes ? (key, null) : (null, $"the cache key {path} is not {KeyBytes} bytes (delete it: a new one is made)");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or TplabException)
        {
            return (null, $"the cache key {path} could not be made or read: {e.Message}");
        }
    }

    /// <summary>The file's bytes for <paramref name="payload"/> (a cache as JSON), sealed with <paramref name="key"/>.</summary>
    public static byte[] Envelope(byte[] key, byte[] payload)
    {
        ArgumentNullException.ThrowIfNull(payload);
        // Copied span by span: a collection expression of spreads copied the 7 MB of a large solution's cache a byte at
        // a time (0.2 s of a 4 s incremental scan).
        var head = Encoding.ASCII.GetBytes("{\"seal\":\"" + Convert.ToHexStringLower(HMACSHA256.HashData(key, payload)) + "\",\"cache\":");
        var tail = "}\n"u8;
        var envelope = new byte[head.Length + payload.Length + tail.Length];
        head.CopyTo(envelope, 0);
        payload.CopyTo(envelope, head.Length);
        tail.CopyTo(envelope.AsSpan(head.Length + payload.Length));
        return envelope;
    }

    /// <summary>The cache value's bytes when <paramref name="file"/> is an envelope sealed with <paramref name="key"/>; else null and why.</summary>
    public static (ReadOnlyMemory<byte> Payload, string? Problem) Open(byte[] key, byte[] file)
    {
        ArgumentNullException.ThrowIfNull(file);
        string? seal = null;
        var payload = ReadOnlyMemory<byte>.Empty;
        try
        {
            var reader = new Utf8JsonReader(file, new JsonReaderOptions { MaxDepth = 256 });
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            {
                return (default, "the cache is not a sealed cache file");
            }
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                if (reader.ValueTextEquals(SealName) && seal is null)
                {
                    reader.Read();
                    if (reader.TokenType != JsonTokenType.String)
                    {
                        return (default, "the cache is not a sealed cache file");
                    }
                    seal = reader.GetString();
                }
                else if (reader.ValueTextEquals(CacheName) && payload.IsEmpty)
                {
                    reader.Read();
                    var start = (int)reader.TokenStartIndex;
                    reader.Skip();
                    payload = file.AsMemory(start, (int)reader.BytesConsumed - start);
                }
                else
                {
                    return (default, "the cache is not a sealed cache file");
                }
            }
            if (reader.TokenType != JsonTokenType.EndObject || reader.Read())
            {
                return (default, "the cache is not a sealed cache file");
            }
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException)
        {
            // InvalidOperationException: a string that is not UTF-8 (the fuzzer's first find, tests/…/Fuzz/Found/scan-cache-seal).
            return (default, "the cache is not a sealed cache file");
        }
        if (seal is null || payload.IsEmpty)
        {
            return (default, "the cache is not a sealed cache file");
        }
        var expected = HMACSHA256.HashData(key, payload.Span);
        byte[] given;
        try
        {
            given = Convert.FromHexString(seal);
        }
        catch (FormatException)
        {
            return (default, "the cache's seal is damaged");
        }
        return CryptographicOperations.FixedTimeEquals(expected, given)
            ? (payload, null)
            : (default, "the cache was not written by this user's tplab (its seal does not match): a cache that came with the code or from another machine is never believed");
    }

    /// <summary>Makes the key whole under a temporary name, then moves it in: a scan starting beside never reads half a key.</summary>
    private static void Create(string path)
    {
        var temporary = path + "." + Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(8));
        var options = new FileStreamOptions { Mode = FileMode.CreateNew, Access = FileAccess.Write };
        if (!OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        }
        using (var stream = new FileStream(temporary, options))
        {
            stream.Write(RandomNumberGenerator.GetBytes(KeyBytes));
        }
        try
        {
            File.Move(temporary, path, overwrite: false);
        }
        catch (IOException) when (File.Exists(path))
        {
            // Another scan made it first: its key is the one.
            File.Delete(temporary);
        }
    }
}
