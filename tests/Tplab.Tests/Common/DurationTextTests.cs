using System.Globalization;
using Tplab.Common;
using Xunit;
using Tplab.Tests.Support;

namespace Tplab.Tests.Common;

[ParallelSafe]
public sealed class DurationTextTests
{
    [Theory]
    [InlineData("500ms", 500)]
    [InlineData("1.5s", 1500)]
    [InlineData("10", 10_000)]
    [InlineData("1m", 60_000)]
    [InlineData("2h", 7_200_000)]
    public void Parses_what_people_type(string text, double ms) =>
        Assert.Equal(TimeSpan.FromMilliseconds(ms), DurationText.Parse(text, "--x"));

    [Theory]
    [InlineData("abc")]
    [InlineData("1,5s")]
    [InlineData("-1s")]
    public void Rejects_with_a_usage_error_naming_the_option(string text)
    {
        var e = Assert.Throws<TplabException>(() => DurationText.Parse(text, "--x"));
        Assert.Equal(ExitCodes.Usage, e.ExitCode);
        Assert.Contains("--x", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_bare_min_takes_the_unit_of_max() =>
        Assert.Equal((TimeSpan.Zero, TimeSpan.FromMilliseconds(200)), DurationText.ParseRange("0..200ms", "--think"));

    [Fact]
    public void Formats_with_a_dot_under_any_culture()
    {
        var before = CultureInfo.CurrentCulture;
        try
        {
            CultureInfo.CurrentCulture = CultureInfo.GetCultureInfo("de-DE");
            Assert.Equal("1.5s", DurationText.Format(TimeSpan.FromMilliseconds(1500)));
            Assert.Equal("250ms", DurationText.Format(TimeSpan.FromMilliseconds(250)));
            Assert.Equal("1m30s", DurationText.Format(TimeSpan.FromSeconds(90)));
        }
        finally
        {
            CultureInfo.CurrentCulture = before;
        }
    }
}
