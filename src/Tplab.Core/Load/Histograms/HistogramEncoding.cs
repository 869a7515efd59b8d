using System.Buffers.Binary;
using System.IO.Compression;
using HdrHistogram;
using HdrHistogram.Encoding;
using HdrHistogram.Utilities;

namespace Tplab.Load.Histograms;

/// <summary>
/// HdrHistogram's V2 compressed encoding (AbstractHistogram.encodeIntoCompressedByteBuffer, the form .hlog files carry
/// in base64): cookie 0x1c849314 and the deflated length, then zlib of the V2 encoding: cookie 0x1c849313, payload
/// length, normalizing offset, significant digits, lowest and highest trackable values, the integer-to-double ratio,
/// then the counts as ZigZag LEB128 words where a negative word is a run of that many zeros. Big-endian throughout.
/// Decoding accepts only tplab's layout (3 significant digits, lowest value 1), which is what it writes. Encoding is
/// HdrHistogram.NET's; decoding is tplab's own, because the library's trusts its input (an index past the counts
/// throws IndexOutOfRangeException, counts may overflow into negative totals, a payload is read with one Stream.Read).
/// </summary>
public static class HistogramEncoding
{
    private const int EncodingCookie = 0x1c849303 | 0x10;
    private const int CompressedCookie = 0x1c849304 | 0x10;
    private const int HeaderSize = 40;

    // No layout reaches this many buckets (HdrHistogram's arrays are indexed by int).
    private const long MaxIndex = int.MaxValue;

    /// <summary>
    /// The compressed encoding of <paramref name="histogram"/>: HdrHistogram.NET's V2 encoder writes the header and the
    /// counts, zlib here compresses them. The library's own compressed form is not used: it leaves out zlib's Adler-32
    /// trailer, which Python's zlib.decompress (HdrHistogram_py) refuses, and deflates its whole buffer (about 240 KiB
    /// per interval) instead of the bytes written.
    /// </summary>
    public static byte[] Encode(LatencyHistogram histogram)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        var buffer = ByteBuffer.Allocate(histogram.Inner.GetNeededByteBufferCapacity());
        var length = histogram.Inner.Encode(buffer, HistogramEncoderV2.Instance);
        // The library keeps its bulk copy internal: the bytes are read one at a time (a few hundred at most).
        buffer.Position = 0;
        var plain = new byte[length];
        for (var i = 0; i < length; i++)
        {
            plain[i] = buffer.Get();
        }
        var compressed = new MemoryStream();
        compressed.Write(new byte[8]);
        using (var zlib = new ZLibStream(compressed, CompressionLevel.Optimal, leaveOpen: true))
        {
            zlib.Write(plain);
        }
        var result = compressed.ToArray();
        BinaryPrimitives.WriteInt32BigEndian(result, CompressedCookie);
        BinaryPrimitives.WriteInt32BigEndian(result.AsSpan(4), result.Length - 8);
        return result;
    }

    /// <summary>
    /// Adds the counts of a compressed (or plain) V2 encoding into <paramref name="into"/>; a <see cref="FormatException"/>
    /// says why it cannot. The input may come from anywhere (a .hlog from another machine): nothing in it is trusted.
    /// It inflates to at most <see cref="MaxPlainLength"/> bytes, every index must fall inside the histogram, and no count
    /// may carry its bucket or the total past <see cref="long.MaxValue"/>; a rejected encoding leaves
    /// <paramref name="into"/> unchanged.
    /// </summary>
    public static void DecodeInto(ReadOnlySpan<byte> encoded, LatencyHistogram into)
    {
        ArgumentNullException.ThrowIfNull(into);
        var plain = Inflate(encoded);
        var (digits, lowest, _, _) = Read(plain, null, MaxIndex);
        if (digits != LatencyHistogram.SignificantDigits || lowest != 1)
        {
            throw new FormatException($"a histogram with {digits} significant digits and lowest value {lowest}; tplab merges only its own layout (3 digits, lowest 1)");
        }
        var counts = new List<(int Index, long Count)>();
        Read(plain, counts, into.CountsLength);
        into.AddCounts(counts);
    }

    /// <summary>The header of an encoding and its total count, whatever its layout (for checks and tests).</summary>
    internal static (int Digits, long Lowest, long Highest, long TotalCount) Inspect(ReadOnlySpan<byte> encoded) => Read(Inflate(encoded), null, MaxIndex);

    /// <summary>
    /// The most bytes an encoding may inflate to: the header and a 9-byte word for every count of tplab's histogram
    /// (about 270 KiB), far above any real one (zero runs take one word); a larger one is a decompression bomb.
    /// </summary>
    internal static int MaxPlainLength { get; } = HeaderSize + (9 * new LatencyHistogram().CountsLength);

    private static byte[] Inflate(ReadOnlySpan<byte> encoded)
    {
        if (encoded.Length < 8)
        {
            throw new FormatException("too short for an HdrHistogram encoding");
        }
        var cookie = BinaryPrimitives.ReadInt32BigEndian(encoded);
        if (cookie != CompressedCookie)
        {
            if (cookie != EncodingCookie)
            {
                throw new FormatException($"not an HdrHistogram V2 encoding (cookie 0x{cookie:x8})");
            }
            if (encoded.Length > MaxPlainLength)
            {
                throw new FormatException($"the histogram is longer than {MaxPlainLength} bytes");
            }
            return encoded.ToArray();
        }
        var length = BinaryPrimitives.ReadInt32BigEndian(encoded[4..]);
        if (length < 0 || length > encoded.Length - 8)
        {
            throw new FormatException($"the compressed length ({length} bytes) runs past the data ({encoded.Length - 8} bytes)");
        }
        try
        {
            using var zlib = new ZLibStream(new MemoryStream(encoded.Slice(8, length).ToArray()), CompressionMode.Decompress);
            // Read in small steps (a real interval inflates to a few hundred bytes), and stop one step past the bound.
            using var plain = new MemoryStream();
            var chunk = new byte[4096];
            int read;
            while ((read = zlib.Read(chunk)) > 0)
            {
                plain.Write(chunk, 0, read);
                if (plain.Length > MaxPlainLength)
                {
                    throw new FormatException($"the compressed histogram inflates past {MaxPlainLength} bytes");
                }
            }
            return plain.ToArray();
        }
        catch (InvalidDataException e)
        {
            throw new FormatException("the compressed histogram does not inflate: " + e.Message, e);
        }
    }

    // Walks the counts, checking every index (below countsLength) and sum; collects the non-zero ones when asked.
    private static (int Digits, long Lowest, long Highest, long TotalCount) Read(ReadOnlySpan<byte> plain, List<(int Index, long Count)>? counts, long countsLength)
    {
        if (plain.Length < HeaderSize || BinaryPrimitives.ReadInt32BigEndian(plain) != EncodingCookie)
        {
            throw new FormatException("not an HdrHistogram V2 encoding");
        }
        var payloadLength = BinaryPrimitives.ReadInt32BigEndian(plain[4..]);
        var digits = BinaryPrimitives.ReadInt32BigEndian(plain[12..]);
        var lowest = BinaryPrimitives.ReadInt64BigEndian(plain[16..]);
        var highest = BinaryPrimitives.ReadInt64BigEndian(plain[24..]);
        if (payloadLength < 0 || payloadLength > plain.Length - HeaderSize)
        {
            throw new FormatException($"the payload length ({payloadLength} bytes) runs past the data ({plain.Length - HeaderSize} bytes)");
        }
        var payload = plain.Slice(HeaderSize, payloadLength);
        long index = 0, total = 0;
        while (!payload.IsEmpty)
        {
            var value = GetZigZag(ref payload);
            if (value < 0)
            {
                // A run of -value empty buckets; long.MinValue has no positive and is no run at all.
                if (value == long.MinValue || -value > MaxIndex - index)
                {
                    throw new FormatException("a run of empty buckets goes past any histogram's last index");
                }
                index -= value;
                continue;
            }
            if (value > 0)
            {
                if (index >= countsLength)
                {
                    throw new FormatException($"a count at index {index}, beyond the histogram's range ({countsLength - 1})");
                }
                if (value > long.MaxValue - total)
                {
                    throw new FormatException("the counts add up past the largest count a histogram holds (2^63 - 1)");
                }
                counts?.Add(((int)index, value));
                total += value;
            }
            index++;
        }
        return (digits, lowest, highest, total);
    }

    // ZigZag then LEB128, at most 9 bytes: the ninth carries a full 8 bits (HdrHistogram's ZigZagEncoding).
    private static long GetZigZag(ref ReadOnlySpan<byte> data)
    {
        ulong v = 0;
        var shift = 0;
        for (var n = 0; ; n++)
        {
            if (data.IsEmpty)
            {
                throw new FormatException("a count is cut short");
            }
            var b = data[0];
            data = data[1..];
            if (n == 8)
            {
                v |= (ulong)b << 56;
                break;
            }
            v |= (ulong)(b & 0x7F) << shift;
            shift += 7;
            if ((b & 0x80) == 0)
            {
                break;
            }
        }
        return (long)(v >> 1) ^ -(long)(v & 1);
    }
}
