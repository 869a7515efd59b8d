using Tplab.Common;

namespace Tplab.Tests.Common;

public sealed class DurationsTests
{
    [Theory]
    [InlineData("500ms", 500)]
    [InlineData("10s", 10_000)]
    [InlineData("1.5s", 1_500)]
    [InlineData("2m", 120_000)]
    [InlineData("1h", 3_600_000)]
    [InlineData("3", 3_000)]
    [InlineData(" 0.25s ", 250)]
    public void TryParse_Valid(string text, double ms)
    {
        Assert.True(Durations.TryParse(text, out var value, out _));
        Assert.Equal(ms, value.TotalMilliseconds);
    }

    [Theory]
    [InlineData("")]
    [InlineData("abc")]
    [InlineData("10x")]
    [InlineData("-1s")]
    [InlineData("9999h")]
    [InlineData("NaNs")]
    public void TryParse_Invalid_SaysWhy(string text)
    {
        Assert.False(Durations.TryParse(text, out _, out var reason));
        Assert.Contains(text.Trim(), reason, StringComparison.Ordinal);
    }
}
