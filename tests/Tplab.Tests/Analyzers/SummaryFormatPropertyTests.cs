extern alias analyzers;
using CsCheck;
using Tplab.Tests.Support;
using BlockingKind = analyzers::Tplab.Blocking.BlockingKind;
using BlockingSummary = analyzers::Tplab.Analyzers.Summaries.BlockingSummary;
using SummaryLine = analyzers::Tplab.Analyzers.Summaries.SummaryLine;

namespace Tplab.Tests.Analyzers;

/// <summary>
/// The summary a library carries in its assembly is outside input to every project that references it (issue 36: every
/// reader of outside input checked beyond its examples). Any text is read without throwing (a line that is not one
/// drops the whole summary), and every summary the generator writes reads back the same (CsCheck).
/// </summary>
[ParallelSafe]
public sealed class SummaryFormatPropertyTests
{
    private static readonly Gen<string> Text = Gen.String[Gen.Char.AlphaNumeric, 0, 12]
        .Select(Pick("", "\t", "\n", "\r", " → ", "`1", "ÿ", "\u001b[2J", "\0"), (a, b) => a + b);

    [Fact]
    public void Read_AnyText_NeverThrows_AndAllOrNothing() =>
        Gen.String.Select(Gen.Int[0, 4], Text, (noise, fields, extra) => fields == 0 ? noise : string.Join('\t', Enumerable.Repeat(extra, fields)) + noise)
            .Sample(value =>
            {
                var lines = BlockingSummary.Read(value);
                if (lines is not null)
                {
                    Assert.All(lines, l => Assert.True(l.Type.Length > 0 && l.Method.Length > 0 && l.Call.Length > 0));
                }
            }, iter: 5000);

    /// <summary>A hop is a method's display name (never empty, never the separator itself).</summary>
    private static readonly Gen<string> Hop = Gen.String[Gen.Char.AlphaNumeric, 1, 10].Select(Pick("", ".Load", "<T>", "`1", "ÿ"), (a, b) => a + b);

    [Fact]
    public void Write_ThenRead_IsTheSameSummary() =>
        Gen.Select(Text, Text, Gen.Enum<BlockingKind>(), Text, Hop.List[0, 4]).Array[0, 6].Sample(rows =>
        {
            var written = rows.Select(r => new SummaryLine("T" + r.Item1, "M" + r.Item2, r.Item3, "C" + r.Item4, r.Item5)).ToList();
            var read = BlockingSummary.Read(BlockingSummary.Write(written));
            Assert.NotNull(read);
            Assert.Equal(written.Count, read.Count);
            foreach (var (w, r) in written.Zip(read))
            {
                Assert.Equal(Clean(w.Type), r.Type);
                Assert.Equal(Clean(w.Method), r.Method);
                Assert.Equal(w.Kind, r.Kind);
                Assert.Equal(Clean(w.Call), r.Call);
                Assert.Equal(w.Chain, r.Chain);
            }
        }, iter: 2000);

    private static Gen<string> Pick(params string[] choices) => Gen.Int[0, choices.Length - 1].Select(i => choices[i]);

    private static string Clean(string text) => text.Replace('\t', ' ').Replace('\n', ' ').Replace('\r', ' ');
}
