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
        // Same machine, same clock: the handler ran inside the client's window, and for at least its 200 ms wait.
        // The wait is due on the timers' clock, Environment.TickCount64, which moves in steps (on Linux it reads
        // CLOCK_MONOTONIC_COARSE: one kernel tick, 4 ms at HZ=250); the stamp's Stopwatch is exact. A wait of 200 ms
        // by steps can be up to one step short by the Stopwatch (198.893 ms was seen), never more.
        Assert.InRange(start, before.AddMilliseconds(-1), after);
        Assert.InRange(dur, 200 - TimerClockStepMs(), (after - before).TotalMilliseconds);
    }

    // The smallest step Environment.TickCount64 moves by: read, not assumed. A descheduled reader only sees larger steps.
    private static long TimerClockStepMs()
    {
        var step = long.MaxValue;
        var last = Environment.TickCount64;
        for (var seen = 0; seen < 5;)
        {
            var now = Environment.TickCount64;
            if (now != last)
            {
                step = Math.Min(step, now - last);
                last = now;
                seen++;
            }
            else
            {
                Thread.Yield();
            }
        }
        return step;
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
