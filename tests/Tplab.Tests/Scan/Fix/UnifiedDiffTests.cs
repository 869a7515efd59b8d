using Tplab.Scan.Fix;
using Tplab.Scan.Fix.Output;

namespace Tplab.Tests.Scan.Fix;

/// <summary>The patch's diff: hunks as git writes them, line endings kept, the last line without one marked; SARIF's replacements from the same edit script.</summary>
public sealed class UnifiedDiffTests
{
    [Fact]
    public void Of_EqualTexts_IsEmpty() => Assert.Equal("", UnifiedDiff.Of("a.cs", "x\n", "x\n"));

    [Fact]
    public void Of_OneLineChanged_OneHunkWithThreeLinesOfContext()
    {
        var before = string.Concat(Enumerable.Range(1, 10).Select(i => $"line {i}\n"));
        var after = before.Replace("line 5\n", "line five\n", StringComparison.Ordinal);
        var diff = UnifiedDiff.Of("src/a.cs", before, after);
        Assert.Equal(
            "diff --git a/src/a.cs b/src/a.cs\n--- a/src/a.cs\n+++ b/src/a.cs\n@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n line 8\n",
            diff);
    }

    [Fact]
    public void Of_CrlfFile_KeepsCrlfInTheChangedLines()
    {
        var diff = UnifiedDiff.Of("a.cs", "a\r\nb\r\n", "a\r\nc\r\n");
        Assert.Contains("-b\r\n+c\r\n", diff, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_LastLineWithoutNewline_IsMarked()
    {
        var diff = UnifiedDiff.Of("a.cs", "a\nb", "a\nc");
        Assert.Contains("-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n", diff, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_FarApartChanges_TwoHunks()
    {
        var before = string.Concat(Enumerable.Range(1, 30).Select(i => $"{i}\n"));
        var after = before.Replace("\n3\n", "\nthree\n", StringComparison.Ordinal).Replace("\n27\n", "\ntwenty-seven\n", StringComparison.Ordinal);
        Assert.Equal(2, UnifiedDiff.Of("a.cs", before, after).Split('\n').Count(l => l.StartsWith("@@", StringComparison.Ordinal)));
    }

    [Theory]
    // inserted, removed, changed lines: the new text's line numbers
    [InlineData("a\nb\n", "a\nx\nb\n", new[] { 2 })]
    [InlineData("a\nb\nc\n", "a\nc\n", new int[0])]
    [InlineData("a\nb\nc\n", "a\nB\nC\n", new[] { 2, 3 })]
    public void ChangedLines_AreTheNewTextsLines(string before, string after, int[] lines) =>
        Assert.Equal(lines, UnifiedDiff.ChangedLines(before, after));

    [Theory]
    // SARIF's replacements: applied from the last, they give the new text, line endings and a missing last one included.
    [InlineData("a\nb\n", "a\nx\nb\n", 1)]
    [InlineData("a\nb\nc\n", "a\nc\n", 1)]
    [InlineData("a\r\nb\r\nc", "a\r\nB\r\nC", 1)]
    [InlineData("1\n2\n3\n4\n5\n6\n7\n8\n", "one\n2\n3\n4\n5\n6\n7\neight\n9\n", 2)]
    [InlineData("", "x\n", 1)]
    [InlineData("x\n", "", 1)]
    public void Replacements_AppliedToTheOldText_GiveTheNewText(string before, string after, int count)
    {
        var replacements = UnifiedDiff.Replacements(before, after);
        Assert.Equal(count, replacements.Count);
        var text = before;
        foreach (var (offset, length, inserted) in replacements.Reverse())
        {
            text = string.Concat(text.AsSpan(0, offset), inserted, text.AsSpan(offset + length));
        }
        Assert.Equal(after, text);
    }
}
