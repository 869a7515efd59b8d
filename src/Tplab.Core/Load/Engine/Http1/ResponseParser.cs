using System.Buffers;
using System.Buffers.Text;
using System.Text;
using Tplab.Load.Requests;

namespace Tplab.Load.Engine.Http1;

/// <summary>What <see cref="ResponseParser.Consume"/> found.</summary>
internal enum ParseStatus
{
    /// <summary>The response is not over: feed more bytes.</summary>
    NeedMore,

    /// <summary>One whole response was read.</summary>
    Complete,

    /// <summary>The bytes are not an HTTP/1.x response (<see cref="ResponseParser.Problem"/> says why).</summary>
    Invalid,
}

/// <summary>
/// A minimal, incremental HTTP/1.1 response reader for a load generator: it keeps only what a report needs
/// (status, exact byte counts, keep-alive, the Server and Server-Timing headers) and skips bodies without copying them.
/// Framing follows RFC 9112 §6.3: no body for HEAD, 1xx, 204 and 304; chunked; Content-Length; else until the close.
/// Interim 1xx responses are read past. Bytes may arrive split anywhere: state carries over between calls.
/// One instance per connection, reused for every response on it; no allocation per response.
/// </summary>
internal sealed class ResponseParser
{
    /// <summary>Longest status, header or chunk-size line accepted.</summary>
    public const int MaxLineLength = 64 * 1024;

    private enum State { StatusLine, Headers, Body, ChunkSize, ChunkData, ChunkDataEnd, Trailers, UntilClose, Done }

    private State _state;
    private byte[] _line = new byte[256];
    private int _lineLength;
    private long _remaining;
    private long _contentLength;
    private bool _chunked;
    private bool _headRequest;
    private bool _http10KeepAlive;
    private bool _http10;

    /// <summary>Status code of the final response (0 until its status line was read).</summary>
    public int Status { get; private set; }

    /// <summary>Every byte of the response read so far: status lines, headers, framing and body.</summary>
    public long BytesIn { get; private set; }

    /// <summary>Body bytes (chunk payloads without their framing).</summary>
    public long BodyBytes { get; private set; }

    /// <summary>The server asked to close the connection after this response (or the response ends at the close).</summary>
    public bool ConnectionClose { get; private set; }

    /// <summary>True once a byte of the response arrived.</summary>
    public bool Started => BytesIn > 0;

    /// <summary>The response's <c>Server-Timing: handler</c> entry, when it had one.</summary>
    public bool HasHandlerTiming { get; private set; }

    /// <summary>The handler's start, Unix epoch milliseconds.</summary>
    public double HandlerStartUnixMs { get; private set; }

    /// <summary>The handler's duration, milliseconds.</summary>
    public double HandlerDurationMs { get; private set; }

    /// <summary>Keep the Server header's value in <see cref="Server"/> (set for the first response only: it allocates).</summary>
    public bool CaptureServer { get; set; }

    /// <summary>The Server header, when <see cref="CaptureServer"/> was set and the response had one.</summary>
    public string? Server { get; private set; }

    /// <summary>Why the response was <see cref="ParseStatus.Invalid"/>.</summary>
    public string? Problem { get; private set; }

    /// <summary>Gets ready for the response to a new request (<paramref name="headRequest"/>: a HEAD, which has no body).</summary>
    public void Reset(bool headRequest)
    {
        _state = State.StatusLine;
        _lineLength = 0;
        _headRequest = headRequest;
        Status = 0;
        BytesIn = 0;
        BodyBytes = 0;
        ConnectionClose = false;
        HasHandlerTiming = false;
        Problem = null;
        ResetHead();
    }

    /// <summary>Reads from <paramref name="data"/>; <paramref name="consumed"/> bytes belong to this response (fewer than given only when it completed).</summary>
    public ParseStatus Consume(ReadOnlySpan<byte> data, out int consumed)
    {
        var start = data.Length;
        var status = Step(ref data);
        consumed = start - data.Length;
        BytesIn += consumed;
        return status;
    }

    /// <summary>The connection closed: complete when the response was framed by the close, otherwise invalid (it ended early).</summary>
    public ParseStatus Finish()
    {
        if (_state == State.UntilClose)
        {
            _state = State.Done;
            return ParseStatus.Complete;
        }
        return _state == State.Done ? ParseStatus.Complete : Fail("the response ended prematurely");
    }

    private ParseStatus Step(ref ReadOnlySpan<byte> data)
    {
        while (true)
        {
            switch (_state)
            {
                case State.Done:
                    return ParseStatus.Complete;
                case State.Body:
                case State.ChunkData:
                    {
                        if (data.IsEmpty)
                        {
                            return ParseStatus.NeedMore;
                        }
                        var take = (int)Math.Min(_remaining, data.Length);
                        data = data[take..];
                        BodyBytes += take;
                        _remaining -= take;
                        if (_remaining == 0)
                        {
                            _state = _state == State.Body ? State.Done : State.ChunkDataEnd;
                        }
                        continue;
                    }
                case State.UntilClose:
                    BodyBytes += data.Length;
                    data = default;
                    return ParseStatus.NeedMore;
                default:
                    {
                        if (!TryTakeLine(ref data, out var line, out var tooLong))
                        {
                            return tooLong ? Fail("a response line is longer than 64 KB") : ParseStatus.NeedMore;
                        }
                        var result = OnLine(line);
                        _lineLength = 0;
                        if (result == ParseStatus.Invalid)
                        {
                            return result;
                        }
                        continue;
                    }
            }
        }
    }

    // A line without its CR LF, straight from the data when it is whole there, else from the carried-over buffer.
    private bool TryTakeLine(ref ReadOnlySpan<byte> data, out ReadOnlySpan<byte> line, out bool tooLong)
    {
        tooLong = false;
        var lf = data.IndexOf((byte)'\n');
        if (lf < 0)
        {
            Append(data, ref tooLong);
            data = default;
            line = default;
            return false;
        }
        if (_lineLength == 0)
        {
            line = data[..lf];
        }
        else
        {
            Append(data[..lf], ref tooLong);
            line = _line.AsSpan(0, _lineLength);
        }
        data = data[(lf + 1)..];
        if (!line.IsEmpty && line[^1] == '\r')
        {
            line = line[..^1];
        }
        return !tooLong;
    }

    private void Append(ReadOnlySpan<byte> bytes, ref bool tooLong)
    {
        if (_lineLength + bytes.Length > MaxLineLength)
        {
            tooLong = true;
            return;
        }
        if (_lineLength + bytes.Length > _line.Length)
        {
            Array.Resize(ref _line, Math.Min(MaxLineLength, Math.Max(_line.Length * 2, _lineLength + bytes.Length)));
        }
        bytes.CopyTo(_line.AsSpan(_lineLength));
        _lineLength += bytes.Length;
    }

    private ParseStatus OnLine(ReadOnlySpan<byte> line)
    {
        switch (_state)
        {
            case State.StatusLine:
                return StatusLine(line);
            case State.Headers:
                return line.IsEmpty ? EndOfHead() : Header(line);
            case State.ChunkSize:
                return ChunkSize(line);
            case State.ChunkDataEnd:
                if (!line.IsEmpty)
                {
                    return Fail("a chunk is longer than its size");
                }
                _state = State.ChunkSize;
                return ParseStatus.NeedMore;
            case State.Trailers:
                if (line.IsEmpty)
                {
                    _state = State.Done;
                }
                return ParseStatus.NeedMore;
            default:
                return Fail("unexpected state");
        }
    }

    // "HTTP/1.1 200 OK": the version decides the default of keep-alive, the three digits the status.
    private ParseStatus StatusLine(ReadOnlySpan<byte> line)
    {
        if (line.Length < 12 || !line.StartsWith("HTTP/1."u8) || line[8] != ' ' || !Utf8Parser.TryParse(line.Slice(9, 3), out int code, out var used) || used != 3 || code < 100)
        {
            return Fail("not an HTTP/1.x status line");
        }
        _http10 = line[7] == '0';
        Status = code;
        _state = State.Headers;
        return ParseStatus.NeedMore;
    }

    // The name's length picks the one header it can be: most lines of a response are none of these and cost one
    // IndexOf and one switch.
    private ParseStatus Header(ReadOnlySpan<byte> line)
    {
        var colon = line.IndexOf((byte)':');
        if (colon <= 0)
        {
            return Fail("a header line without a name");
        }
        var name = line[..colon];
        switch (name.Length)
        {
            case 14 when Ascii.EqualsIgnoreCase(name, "Content-Length"u8):
                var digits = Value(line, colon);
                if (!Utf8Parser.TryParse(digits, out long length, out var used) || used != digits.Length || length < 0)
                {
                    return Fail("an invalid Content-Length");
                }
                _contentLength = length;
                break;
            case 17 when Ascii.EqualsIgnoreCase(name, "Transfer-Encoding"u8):
                _chunked = EndsWithToken(Value(line, colon), "chunked"u8);
                break;
            case 10 when Ascii.EqualsIgnoreCase(name, "Connection"u8):
                var value = Value(line, colon);
                ConnectionClose |= HasToken(value, "close"u8);
                _http10KeepAlive |= HasToken(value, "keep-alive"u8);
                break;
            case 6 when CaptureServer && Server is null && Ascii.EqualsIgnoreCase(name, "Server"u8):
                Server = Encoding.Latin1.GetString(Value(line, colon));
                break;
            case 13 when !HasHandlerTiming && Ascii.EqualsIgnoreCase(name, "Server-Timing"u8):
                ReadServerTiming(Value(line, colon));
                break;
        }
        return ParseStatus.NeedMore;
    }

    private static ReadOnlySpan<byte> Value(ReadOnlySpan<byte> line, int colon) => line[(colon + 1)..].Trim((byte)' ').Trim((byte)'\t');

    private ParseStatus EndOfHead()
    {
        if (Status is >= 100 and < 200 && Status != 101)
        {
            // An interim response (100 Continue, 103 Early Hints): the real one follows.
            Status = 0;
            ResetHead();
            _state = State.StatusLine;
            return ParseStatus.NeedMore;
        }
        if (_http10 && !_http10KeepAlive)
        {
            ConnectionClose = true;
        }
        if (_headRequest || Status is 204 or 304 or (>= 100 and < 200))
        {
            _state = State.Done;
        }
        else if (_chunked)
        {
            _state = State.ChunkSize;
        }
        else if (_contentLength >= 0)
        {
            _remaining = _contentLength;
            _state = _contentLength == 0 ? State.Done : State.Body;
        }
        else
        {
            _state = State.UntilClose;
            ConnectionClose = true;
        }
        return ParseStatus.NeedMore;
    }

    private ParseStatus ChunkSize(ReadOnlySpan<byte> line)
    {
        var semicolon = line.IndexOf((byte)';');
        var digits = (semicolon >= 0 ? line[..semicolon] : line).Trim((byte)' ');
        if (!Utf8Parser.TryParse(digits, out long size, out var used, 'x') || used != digits.Length || digits.IsEmpty || size < 0)
        {
            return Fail("an invalid chunk size");
        }
        if (size == 0)
        {
            _state = State.Trailers;
        }
        else
        {
            _remaining = size;
            _state = State.ChunkData;
        }
        return ParseStatus.NeedMore;
    }

    private void ReadServerTiming(ReadOnlySpan<byte> value)
    {
        if (ServerTiming.TryParseHandler(value, out var start, out var duration))
        {
            HasHandlerTiming = true;
            HandlerStartUnixMs = start;
            HandlerDurationMs = duration;
        }
    }

    private void ResetHead()
    {
        _contentLength = -1;
        _chunked = false;
        _http10 = false;
        _http10KeepAlive = false;
    }

    private ParseStatus Fail(string problem)
    {
        Problem = problem;
        return ParseStatus.Invalid;
    }

    private static bool HasToken(ReadOnlySpan<byte> value, ReadOnlySpan<byte> token)
    {
        foreach (var range in value.Split((byte)','))
        {
            if (Ascii.EqualsIgnoreCase(value[range].Trim((byte)' '), token))
            {
                return true;
            }
        }
        return false;
    }

    // Chunked framing applies only when chunked is the last coding (RFC 9112 §6.3).
    private static bool EndsWithToken(ReadOnlySpan<byte> value, ReadOnlySpan<byte> token)
    {
        var comma = value.LastIndexOf((byte)',');
        return Ascii.EqualsIgnoreCase(value[(comma + 1)..].Trim((byte)' '), token);
    }
}
