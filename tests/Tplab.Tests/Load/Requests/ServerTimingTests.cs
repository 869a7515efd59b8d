using System.Globalization;
using Tplab.Load.Requests;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load.Requests;

[ParallelSafe]
public sealed class ServerTimingTests
{
    [Theory]
    // the header value                                                      found  start            dur
    [InlineData("handler;start=1763719200123.456;dur=1000.2", true, 1763719200123.456, 1000.2)]
    [InlineData("db;dur=53, handler;dur=12;start=1700000000000", true, 1700000000000.0, 12.0)]
    [InlineData("Handler; start=\"1700000000000.5\" ; dur=\"3\"", true, 1700000000000.5, 3.0)]
    [InlineData("handler;dur=12", false, double.NaN, double.NaN)]
    [InlineData("handler;start=1700000000000", false, double.NaN, double.NaN)]
    [InlineData("handler;start=abc;dur=1", false, double.NaN, double.NaN)]
    [InlineData("handler;start=1700000000000;dur=-1", false, double.NaN, double.NaN)]
    [InlineData("cache;desc=\"hit\"", false, double.NaN, double.NaN)]
    [InlineData("", false, double.NaN, double.NaN)]
    public void TryParseHandler_Table(string header, bool found, double start, double dur)
    {
        Assert.Equal(found, ServerTiming.TryParseHandler(header, out var s, out var d));
        Assert.Equal(start, s, 3);
        Assert.Equal(dur, d, 3);
    }

    [Theory]
    // the usual shape, read straight from the bytes
    [InlineData("handler;start=1763719200123.456;dur=1000.2")]
    [InlineData("Handler ; start=1700000000000 ; dur=0.054")]
    [InlineData("handler;dur=3;start=1.5;start=2.25")]
    [InlineData("handler;start=9007199254740.993;dur=1")]
    [InlineData("handler ; start = 1 ; dur = 2")]
    [InlineData("handler;start=1;dur=2, db;dur=3")]
    [InlineData("handler;st art=5;start=1;dur=2")]
    // edge shapes the one-pass reader must send on to the text parser or refuse as it does
    [InlineData("handler;;start=1;dur=2")]
    [InlineData("handler;start=1;dur=2;")]
    [InlineData("handlerX;start=1;dur=2")]
    [InlineData("handler;start=1 2;dur=3")]
    [InlineData("handler;start=1..2;dur=3")]
    [InlineData("handler;=1;start=1;dur=2")]
    [InlineData("handler;start=1;dur")]
    [InlineData("  handler")]
    // anything else, through the text parser
    [InlineData("db;dur=53, handler;dur=12;start=1700000000000")]
    [InlineData("handler;start=\"1700000000000.5\";dur=\"3\"")]
    [InlineData("handler;start=1700000000000;dur=-1")]
    [InlineData("handler;start=1e3;dur=1")]
    [InlineData("handler;start=1;dur=2;desc=\"x\"")]
    [InlineData("handler;start=12345678901234567890;dur=1")]
    [InlineData("handler;start=1.;dur=.5")]
    [InlineData("handler;start=.;dur=1")]
    [InlineData("handler;dur=12")]
    [InlineData("")]
    public void TryParseHandler_Bytes_AgreesWithText(string header)
    {
        var fromText = ServerTiming.TryParseHandler(header.AsSpan(), out var textStart, out var textDur);
        var fromBytes = ServerTiming.TryParseHandler(System.Text.Encoding.Latin1.GetBytes(header), out var start, out var dur);
        Assert.Equal(fromText, fromBytes);
        Assert.Equal(textStart, start);
        Assert.Equal(textDur, dur);
    }

    [Fact]
    public void Format_UnderACommaCulture_ParsesBackWithDots()
    {
        var previous = CultureInfo.CurrentCulture;
        CultureInfo.CurrentCulture = CultureInfo.GetCultureInfo("de-DE");
        try
        {
            var start = DateTimeOffset.UnixEpoch.AddMilliseconds(1_763_719_200_123.5);
            var header = ServerTiming.Format(start, TimeSpan.FromMilliseconds(1000.25));
            Assert.Equal("handler;start=1763719200123.5;dur=1000.25", header);
            Assert.True(ServerTiming.TryParseHandler(header, out var s, out var d));
            Assert.Equal(1_763_719_200_123.5, s, 3);
            Assert.Equal(1000.25, d, 3);
        }
        finally
        {
            CultureInfo.CurrentCulture = previous;
        }
    }
}
