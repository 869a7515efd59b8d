using Tplab.Scan.Output;
using Tplab.Tests.Support;

namespace Tplab.Tests.Scan.Output;

/// <summary>The text report's width rule: names elided in the middle, sentences wrapped at words, lists cut with "and N more".</summary>
[ParallelSafe]
public sealed class ScanTextWidthTests
{
    [Theory]
    [InlineData("Shop.Web.Services.OrderService.Find", 40, "Shop.Web.Services.OrderService.Find")]
    [InlineData("Shop.Web.Services.OrderService.Find", 20, "Shop....Service.Find")]
    [InlineData("src/Very/Long/Folder/Names/OrderService.cs", 30, "src/Very/...es/OrderService.cs")]
    public void Elide_LongName_KeepsItsStartAndItsEnd(string text, int max, string expected)
    {
        var elided = ScanTextWidth.Elide(text, max);

        Assert.Equal(expected, elided);
        Assert.True(elided.Length <= max);
    }

    [Fact]
    public void Wrap_LongSentenceAndAWordLongerThanALine_NoLineOverTheWidth()
    {
        var writer = new StringWriter();
        var word = "Namespace." + new string('x', 200) + ".Method";

        ScanTextWidth.Wrap("  fix: ", string.Join(' ', Enumerable.Repeat("make it async", 30)) + " " + word + " end", writer);

        var lines = writer.ToString().TrimEnd('\n').Split('\n');
        Assert.True(lines.Length > 3);
        Assert.All(lines, l => Assert.InRange(l.Length, 1, ScanTextWidth.Width));
        Assert.All(lines.Skip(1), l => Assert.StartsWith("       ", l, StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("Namespace.x", StringComparison.Ordinal) && l.Contains("...", StringComparison.Ordinal) && l.Contains("x.Method", StringComparison.Ordinal));
    }

    [Fact]
    public void Limit_ManyLongItems_StopsWithAndMoreWithinTheWidth()
    {
        var items = Enumerable.Range(0, 9).Select(i => $"GET /api/v2/settings/{i}/" + new string('s', 30 + (i * 20)));

        var line = ScanTextWidth.Limit("  reached from 9 entry point(s) (9 errors); also: ", items, 8);

        Assert.True(line.Length <= ScanTextWidth.Width, line);
        Assert.Matches(@", and \d more$", line);
        Assert.StartsWith("  reached from 9 entry point(s) (9 errors); also: GET /api/v2/settings/0/", line, StringComparison.Ordinal);
    }
}
