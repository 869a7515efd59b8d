using System.Buffers.Binary;
using System.Globalization;
using System.IO.Compression;
using Tplab.Common;
using Tplab.Load.Histograms;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load.Histograms;

/// <summary>
/// <c>tplab load merge</c> on crafted interval logs (issue 21 §6): whatever a .hlog holds, the answer is one line naming
/// the file and line, exit 2, and no report; never an internal error, a negative total or an unbounded inflate. The
/// command tree runs in this process (<see cref="InProcessCli"/>): 38 runtime starts of the real program, one after
/// another in the serial collection, proved nothing the reader does not (the program's own start and one line on bad
/// input: Cli/CliTests).
/// </summary>
[ParallelSafe]
public sealed class CraftedLogTests
{    private const string Header = "#[Histogram log format version 1.3]\n#[StartTime: 1800000000.000 (seconds since epoch), Fri Jan 15 08:00:00 UTC 2027]\n\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n";

    // name -> the log's interval lines (after the header); every one must be refused
    public static TheoryData<string> Cases => [.. Logs.Keys];

    private static readonly Dictionary<string, string> Logs = new()
    {
        ["truncated base64"] = Line(Good()[..^3]),
        ["bad cookie"] = Line(Convert.ToBase64String([0x12, 0x34, 0x56, 0x78, 0, 0, 0, 0, 1, 2, 3, 4])),
        ["compressed length past the data"] = Line(Convert.ToBase64String(Compressed(Plain(Words(1)), declaredLength: int.MaxValue))),
        ["payload length past the data"] = Line(Convert.ToBase64String(Compressed(Plain(Words(1), payloadLength: int.MaxValue)))),
        ["negative payload length"] = Line(Convert.ToBase64String(Compressed(Plain(Words(1), payloadLength: -1)))),
        ["inflates to 16 MB (bomb)"] = Line(Convert.ToBase64String(Compressed(Plain(new byte[16 << 20])))),
        ["bad zlib"] = Line(Convert.ToBase64String(Compressed(Plain(Words(1)))[..10].Concat(Enumerable.Repeat((byte)0xff, 40)).ToArray())),
        ["zlib cut short"] = Line(Convert.ToBase64String(CutShort(Compressed(Plain(Words(Enumerable.Range(1, 3000).Select(i => (long)i).ToArray())))))),
        ["count cut short"] = Line(Convert.ToBase64String(Compressed(Plain([.. Words(5), 0x80])))),
        ["run of long.MinValue empty buckets"] = Line(Convert.ToBase64String(Compressed(Plain(Words(long.MinValue, 1))))),
        ["run past int.MaxValue"] = Line(Convert.ToBase64String(Compressed(Plain(Words(-int.MaxValue, -int.MaxValue, 1))))),
        ["count beyond the histogram's range"] = Line(Convert.ToBase64String(Compressed(Plain(Words(-40_000, 1))))),
        ["counts overflow in one interval"] = Line(Convert.ToBase64String(Compressed(Plain(Words(long.MaxValue, 1))))),
        ["counts overflow across intervals"] = Line(Convert.ToBase64String(Compressed(Plain(Words(long.MaxValue - 1))))) + Line(Good()),
        ["not tplab's layout (Java's 2 digits)"] = Line("HISTFAAAAEB42pNpmSzMwMAgywABTBDKT4GBgdnNYMcCBvsPEBEjDT0FMTUxMT05LgEhPqmIeWxtTAKMTNxM6xmZmAAjcgjc"),
        ["start not a number"] = "NaN,1.000,0.010," + Good() + "\n",
        ["start past the year 9999"] = "1e300,1.000,0.010," + Good() + "\n",
        ["negative length"] = "0.000,-5.000,0.010," + Good() + "\n",
        ["too many fields"] = "0.000,1.000,0.010," + Good() + ",x\n",
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Merge_CraftedLog_OneLineUsageExitAndNoReport(string name)
    {
        var dir = Directory.CreateTempSubdirectory("tplab-crafted-");
        try
        {
            var path = Path.Combine(dir.FullName, "crafted.hlog");
            await File.WriteAllTextAsync(path, Header + Logs[name]);
            foreach (var format in new[] { "text", "json" })
            {
                var (code, stdout, stderr) = await InProcessCli.RunAsync(CultureInfo.InvariantCulture, "load", "merge", path, "--format", format);
                Assert.Equal(ExitCodes.Usage, code);
                var line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
                Assert.StartsWith($"tplab: {path}:", line, StringComparison.Ordinal);
                Assert.DoesNotContain("internal error", line, StringComparison.Ordinal);
                Assert.Equal("", stdout);
            }
            Assert.Equal(["crafted.hlog"], Directory.GetFiles(dir.FullName).Select(Path.GetFileName));
        }
        finally
        {
            dir.Delete(recursive: true);
        }
    }

    [Fact]
    public void DecodeInto_RejectedEncoding_LeavesTheHistogramUnchanged()
    {
        var h = new LatencyHistogram();
        h.Record(100);
        var bad = Compressed(Plain(Words(3, -40_000, 1)));
        Assert.Throws<FormatException>(() => HistogramEncoding.DecodeInto(bad, h));
        Assert.Equal(1, h.TotalCount);
    }

    [Fact]
    public void Control_TheGoodLineOfTheseCases_Merges()
    {
        var path = Path.GetTempFileName();
        try
        {
            File.WriteAllText(path, Header + Line(Good()));
            Assert.Equal(6, HistogramLog.Merge([path]).Histogram.TotalCount);
        }
        finally
        {
            File.Delete(path);
        }
    }

    private static string Line(string base64) => "0.000,1.000,0.010," + base64 + "\n";

    // A valid interval of tplab's layout: 1, 2 and 3 counts at values 0, 1 and 2 µs.
    private static string Good() => Convert.ToBase64String(Compressed(Plain(Words(1, 2, 3))));

    private static byte[] Words(params long[] values)
    {
        var bytes = new List<byte>();
        var word = new byte[10];
        foreach (var v in values)
        {
            bytes.AddRange(word.AsSpan(0, PutZigZag(word, v)).ToArray());
        }
        return [.. bytes];
    }

    // The V2 header (cookie, payload length, offset, 3 digits, lowest 1, highest 100 h in µs, ratio 1.0) and the payload.
    private static byte[] Plain(byte[] payload, int? payloadLength = null)
    {
        var plain = new byte[40 + payload.Length];
        BinaryPrimitives.WriteInt32BigEndian(plain, 0x1c849313);
        BinaryPrimitives.WriteInt32BigEndian(plain.AsSpan(4), payloadLength ?? payload.Length);
        BinaryPrimitives.WriteInt32BigEndian(plain.AsSpan(12), 3);
        BinaryPrimitives.WriteInt64BigEndian(plain.AsSpan(16), 1);
        BinaryPrimitives.WriteInt64BigEndian(plain.AsSpan(24), 100L * 3600 * 1_000_000);
        BinaryPrimitives.WriteDoubleBigEndian(plain.AsSpan(32), 1.0);
        payload.CopyTo(plain, 40);
        return plain;
    }

    private static byte[] Compressed(byte[] plain, int? declaredLength = null)
    {
        var output = new MemoryStream();
        output.Write(new byte[8]);
        using (var zlib = new ZLibStream(output, CompressionLevel.Optimal, leaveOpen: true))
        {
            zlib.Write(plain);
        }
        var bytes = output.ToArray();
        BinaryPrimitives.WriteInt32BigEndian(bytes, 0x1c849314);
        BinaryPrimitives.WriteInt32BigEndian(bytes.AsSpan(4), declaredLength ?? bytes.Length - 8);
        return bytes;
    }

    // Half the deflated stream, with the length fixed to match: it inflates short of its stated payload.
    private static byte[] CutShort(byte[] compressed)
    {
        var cut = compressed[..(8 + ((compressed.Length - 8) / 2))];
        BinaryPrimitives.WriteInt32BigEndian(cut.AsSpan(4), cut.Length - 8);
        return cut;
    }

    // HdrHistogram's ZigZag LEB128 word (at most 9 bytes, the ninth a full 8 bits), to write any count or run.
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
}
