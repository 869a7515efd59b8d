using System.Globalization;
using CsCheck;
using Tplab.Common;
using Tplab.Tests.Support;

namespace Tplab.Tests.Common;

/// <summary>Every duration tplab writes (plans, reports) it reads back equal, under every culture (CsCheck).</summary>
public sealed class DurationTextPropertyTests
{
    [Fact]
    public void Format_ThenParse_IsTheSameDuration_UnderEveryCulture() =>
        Gen.Select(Gen.Long[0, TimeSpan.TicksPerDay], Gen.Int[0, InProcessCli.Cultures.Count - 1]).Sample((ticks, culture) =>
        {
            var saved = CultureInfo.CurrentCulture;
            CultureInfo.CurrentCulture = InProcessCli.Cultures[culture];
            try
            {
                var value = TimeSpan.FromTicks(ticks);
                Assert.Equal(value, DurationText.Parse(DurationText.Format(value), "x"));
            }
            finally
            {
                CultureInfo.CurrentCulture = saved;
            }
        }, iter: 2000);

    [Theory]
    [InlineData("1m30s", 90_000)]
    [InlineData("1h2m3.5s", 3_723_500)]
    [InlineData("1s500ms", 1_500)]
    public void Parse_Compound(string text, int ms) => Assert.Equal(TimeSpan.FromMilliseconds(ms), DurationText.Parse(text, "x"));

    [Theory]
    [InlineData("1s1m")]
    [InlineData("1m1m")]
    [InlineData("m")]
    [InlineData("1x")]
    public void Parse_BadCompound_IsAUsageError(string text) =>
        Assert.Equal(ExitCodes.Usage, Assert.Throws<TplabException>(() => DurationText.Parse(text, "x")).ExitCode);
}
