using System.Buffers.Binary;
using System.IO.Compression;

namespace Tplab.Load.Histograms;

/// <summary>
/// HdrHistogram's V2 compressed encoding (AbstractHistogram.encodeIntoCompressedByteBuffer, the form .hlog files carry
/// in base64): cookie 0x1c849314 and the deflated length, then zlib of the V2 encoding: cookie 0x1c849313, payload
/// length, normalizing offset, significant digits, lowest and highest trackable values, the integer-to-double ratio,
/// then the counts as ZigZag LEB128 words where a negative word is a run of that many zeros. Big-endian throughout.
/// Decoding accepts only tplab's layout (3 significant digits, lowest value 1), which is what it writes.
/// </summary>
public static class HistogramEncoding
{
    private const int EncodingCookie = 0x1c849303 | 0x10;
    private const int CompressedCookie = 0x1c849304 | 0x10;
    private const int HeaderSize = 40;

    /// <summary>The compressed encoding of <paramref name="histogram"/>.</summary>
    public static byte[] Encode(LatencyHistogram histogram)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        var payload = new MemoryStream();
        var word = new byte[10];
        var limit = histogram.LastNonZeroIndex() + 1;
        for (var i = 0; i < limit;)
        {
            var count = histogram.CountAt(i++);
            var zeros = 0;
            if (count == 0)
            {
                zeros = 1;
                while (i < limit && histogram.CountAt(i) == 0)
                {
                    zeros++;
                    i++;
                }
            }
            payload.Write(word, 0, PutZigZag(word, zeros > 1 ? -zeros : count));
        }
        var plain = new byte[HeaderSize + payload.Length];
        var span = plain.AsSpan();
        BinaryPrimitives.WriteInt32BigEndian(span, EncodingCookie);
        BinaryPrimitives.WriteInt32BigEndian(span[4..], (int)payload.Length);
        BinaryPrimitives.WriteInt32BigEndian(span[8..], 0);
        BinaryPrimitives.WriteInt32BigEndian(span[12..], LatencyHistogram.SignificantDigits);
        BinaryPrimitives.WriteInt64BigEndian(span[16..], 1);
        BinaryPrimitives.WriteInt64BigEndian(span[24..], histogram.HighestTrackableValue);
        BinaryPrimitives.WriteDoubleBigEndian(span[32..], 1.0);
        payload.GetBuffer().AsSpan(0, (int)payload.Length).CopyTo(span[HeaderSize..]);

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

    /// <summary>Adds the counts of a compressed (or plain) V2 encoding into <paramref name="into"/>; a <see cref="FormatException"/> says why it cannot.</summary>
    public static void DecodeInto(ReadOnlySpan<byte> encoded, LatencyHistogram into)
    {
        ArgumentNullException.ThrowIfNull(into);
        var plain = Inflate(encoded);
        var (digits, lowest, _, _) = Read(plain, null);
        if (digits != LatencyHistogram.SignificantDigits || lowest != 1)
        {
            throw new FormatException($"a histogram with {digits} significant digits and lowest value {lowest}; tplab merges only its own layout (3 digits, lowest 1)");
        }
        Read(plain, into);
    }

    /// <summary>The header of an encoding and its total count, whatever its layout (for checks and tests).</summary>
    internal static (int Digits, long Lowest, long Highest, long TotalCount) Inspect(ReadOnlySpan<byte> encoded) => Read(Inflate(encoded), null);

    private static byte[] Inflate(ReadOnlySpan<byte> encoded)
    {
        if (encoded.Length < 8)
        {
            throw new FormatException("too short for an HdrHistogram encoding");
        }
        if (BinaryPrimitives.ReadInt32BigEndian(encoded) != CompressedCookie)
        {
            return encoded.ToArray();
        }
        var length = BinaryPrimitives.ReadInt32BigEndian(encoded[4..]);
        if (length < 0 || length > encoded.Length - 8)
        {
            throw new FormatException("the compressed length runs past the data");
        }
        try
        {
            using var zlib = new ZLibStream(new MemoryStream(encoded.Slice(8, length).ToArray()), CompressionMode.Decompress);
            using var inflated = new MemoryStream();
            zlib.CopyTo(inflated);
            return inflated.ToArray();
        }
        catch (InvalidDataException e)
        {
            throw new FormatException("the compressed histogram does not inflate: " + e.Message, e);
        }
    }

    // Walks the counts; adds them into the histogram when one is given (same layout checked by the caller).
    private static (int Digits, long Lowest, long Highest, long TotalCount) Read(ReadOnlySpan<byte> plain, LatencyHistogram? into)
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
            throw new FormatException("the payload length runs past the data");
        }
        var payload = plain.Slice(HeaderSize, payloadLength);
        long index = 0, total = 0;
        while (!payload.IsEmpty)
        {
            var value = GetZigZag(ref payload);
            if (value < 0)
            {
                index -= value;
                continue;
            }
            if (into is not null && value > 0)
            {
                if (index >= into.CountsLength)
                {
                    throw new FormatException("a count beyond the histogram's range");
                }
                into.AddAtIndex((int)index, value);
            }
            total += value;
            index++;
        }
        return (digits, lowest, highest, total);
    }

    // ZigZag then LEB128, at most 9 bytes: the ninth carries a full 8 bits (HdrHistogram's ZigZagEncoding).
    private static int PutZigZag(Span<byte> buffer, long value)
    {
        var v = (ulong)((value << 1) ^ (value >> 63));
        var n = 0;
        while (n < 8 && v >= 0x80)
        {
            buffer[n++] = (byte)((v & 0x7F) | 0x80);
            v >>= 7;
        }
        buffer[n++] = (byte)v;
        return n;
    }

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
