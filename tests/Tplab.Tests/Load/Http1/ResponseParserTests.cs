using System.Text;
using Tplab.Load.Engine.Http1;
using Tplab.Tests.Support;

namespace Tplab.Tests.Load.Http1;

/// <summary>
/// The sockets engine's response reader on byte streams, no network: every framing, fed whole and split at every
/// position (the bytes of a response can arrive cut anywhere), must give the same status, byte counts and keep-alive.
/// </summary>
[ParallelSafe]
public sealed class ResponseParserTests
{
    public static TheoryData<string, string, int, long, bool, bool> Responses => new()
    {
        // name, raw response, status, body bytes, connection close, HEAD request
        { "content-length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nServer: Kestrel\r\n\r\nhello", 200, 5, false, false },
        { "empty body", "HTTP/1.1 204 No Content\r\nDate: x\r\n\r\n", 204, 0, false, false },
        { "chunked with extension and trailer", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: 1\r\n\r\n", 200, 31, false, false },
        { "connection close", "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 3\r\n\r\nbad", 503, 3, true, false },
        { "http/1.0 without keep-alive", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", 200, 2, true, false },
        { "interim 100 continue first", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 1\r\n\r\nx", 201, 1, false, false },
        { "head ignores content-length", "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", 200, 0, false, true },
        { "304 has no body", "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n", 304, 0, false, false },
        { "bare LF line ends", "HTTP/1.1 200 OK\nContent-Length: 2\n\nok", 200, 2, false, false },
    };

    [Theory]
    [MemberData(nameof(Responses))]
    public void Response_SplitAtEveryPosition_SameResult(string name, string raw, int status, long body, bool close, bool head)
    {
        var bytes = Encoding.ASCII.GetBytes(raw);
        for (var split = 0; split <= bytes.Length; split++)
        {
            var parser = new ResponseParser();
            parser.Reset(head);
            var first = parser.Consume(bytes.AsSpan(0, split), out var used1);
            var done = first == ParseStatus.Complete;
            var used2 = 0;
            if (!done)
            {
                Assert.Equal(ParseStatus.NeedMore, first);
                Assert.Equal(split, used1);
                done = parser.Consume(bytes.AsSpan(split), out used2) == ParseStatus.Complete;
            }
            Assert.True(done, $"{name}: not complete when split at {split}");
            Assert.Equal(bytes.Length, used1 + used2);
            Assert.Equal(status, parser.Status);
            Assert.Equal(body, parser.BodyBytes);
            Assert.Equal(bytes.Length, parser.BytesIn);
            Assert.Equal(close, parser.ConnectionClose);
        }
    }

    [Fact]
    public void Response_OneByteAtATime_Completes()
    {
        var bytes = Encoding.ASCII.GetBytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n");
        var parser = new ResponseParser();
        parser.Reset(headRequest: false);
        for (var i = 0; i < bytes.Length; i++)
        {
            var status = parser.Consume(bytes.AsSpan(i, 1), out _);
            Assert.Equal(i == bytes.Length - 1 ? ParseStatus.Complete : ParseStatus.NeedMore, status);
        }
        Assert.Equal(3, parser.BodyBytes);
    }

    [Fact]
    public void NoLength_BodyEndsAtTheClose()
    {
        var parser = new ResponseParser();
        parser.Reset(headRequest: false);
        Assert.Equal(ParseStatus.NeedMore, parser.Consume("HTTP/1.1 200 OK\r\n\r\nsome"u8, out _));
        Assert.Equal(ParseStatus.NeedMore, parser.Consume(" more"u8, out _));
        Assert.Equal(ParseStatus.Complete, parser.Finish());
        Assert.Equal(9, parser.BodyBytes);
        Assert.True(parser.ConnectionClose);
    }

    [Fact]
    public void ClosedBeforeTheBodyEnded_IsPremature()
    {
        var parser = new ResponseParser();
        parser.Reset(headRequest: false);
        parser.Consume("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"u8, out _);
        Assert.Equal(ParseStatus.Invalid, parser.Finish());
        Assert.Equal("the response ended prematurely", parser.Problem);
    }

    [Fact]
    public void ServerTimingAndServer_ReadWhenAsked()
    {
        var parser = new ResponseParser { CaptureServer = true };
        parser.Reset(headRequest: false);
        var status = parser.Consume("HTTP/1.1 200 OK\r\nServer: Kestrel\r\nServer-Timing: db;dur=2, handler;start=1763719200123.5;dur=1000.25\r\nContent-Length: 0\r\n\r\n"u8, out _);
        Assert.Equal(ParseStatus.Complete, status);
        Assert.Equal("Kestrel", parser.Server);
        Assert.True(parser.HasHandlerTiming);
        Assert.Equal(1763719200123.5, parser.HandlerStartUnixMs);
        Assert.Equal(1000.25, parser.HandlerDurationMs);
    }

    [Theory]
    [InlineData("SSH-2.0-OpenSSH\r\n", "not an HTTP/1.x status line")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", "an invalid Content-Length")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "an invalid chunk size")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", "a chunk is longer than its size")]
    public void Garbage_IsInvalidWithAReason(string raw, string problem)
    {
        var parser = new ResponseParser();
        parser.Reset(headRequest: false);
        Assert.Equal(ParseStatus.Invalid, parser.Consume(Encoding.ASCII.GetBytes(raw), out _));
        Assert.Equal(problem, parser.Problem);
    }
}
