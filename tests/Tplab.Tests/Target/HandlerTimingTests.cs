using System.Globalization;
using System.Text.RegularExpressions;
using Tplab.Tests.Support;

namespace Tplab.Tests.Target;

/// <summary>The target's Server-Timing handler stamp (docs/load.md), read from a real target process.</summary>
public sealed partial class HandlerTimingTests(TargetFixture fixture) : IClassFixture<TargetFixture>
{
    [GeneratedRegex(@"^handler;start=(\d+(?:\.\d{1,3})?);dur=(\d+(?:\.\d{1,3})?)$")]
    private static partial Regex Stamp();

    [Fact]
    public async Task Response_CarriesHandlerStartAndDuration_InsideTheRequestsWallClockWindow()
    {
        using var http = new HttpClient();
        var before = DateTimeOffset.UtcNow;
        using var response = await http.GetAsync(fixture.Url("/delay?ms=200"));
        var after = DateTimeOffset.UtcNow;

        var header = Assert.Single(response.Headers.GetValues("Server-Timing"));
        var match = Stamp().Match(header);
        Assert.True(match.Success, $"unexpected Server-Timing: {header}");
        var start = DateTimeOffset.UnixEpoch.AddMilliseconds(double.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture));
        var dur = double.Parse(match.Groups[2].Value, CultureInfo.InvariantCulture);
        // Same machine, same clock: the handler ran inside the client's window, and for at least its 200 ms wait
        // (timers may fire up to a millisecond early).
        Assert.InRange(start, before.AddMilliseconds(-1), after);
        Assert.InRange(dur, 199, (after - before).TotalMilliseconds);
    }

    [Fact]
    public async Task BadRequest_IsStampedToo()
    {
        using var http = new HttpClient();
        using var response = await http.GetAsync(fixture.Url("/delay?ms=-1"));
        Assert.Equal(400, (int)response.StatusCode);
        Assert.Matches(Stamp(), Assert.Single(response.Headers.GetValues("Server-Timing")));
    }
}
