namespace Tplab.Load.Engine;

/// <summary>
/// One request as it happened. Times are offsets from the start of the run: when it should have left
/// (<see cref="Scheduled"/>; equal to <see cref="Start"/> in closed loop), when it left, when the response
/// headers arrived, and when the body was read. <see cref="Status"/> is 0 when no response came.
/// <see cref="Target"/> is the index of the request template sent (<see cref="LoadOptions.Targets"/>).
/// <see cref="HandlerStart"/> and <see cref="HandlerEnd"/> are on the same time line, read from the response's
/// <c>Server-Timing: handler</c> entry when the app sends one (<see cref="Requests.ServerTiming"/>); null otherwise.
/// </summary>
public readonly record struct RequestRecord(
    TimeSpan Scheduled,
    TimeSpan Start,
    TimeSpan FirstByte,
    TimeSpan End,
    int Status,
    long BytesIn,
    long BodyBytesIn,
    long BytesOut,
    string? Error,
    int User,
    int Target = 0,
    TimeSpan? HandlerStart = null,
    TimeSpan? HandlerEnd = null)
{
    /// <summary>Latency as a user sees it: from the scheduled send to the end (coordinated-omission free in open loop).</summary>
    public TimeSpan Latency => End - Scheduled;

    /// <summary>Service time: from the actual send to the end (what ab, JMeter, siege and vegeta call latency).</summary>
    public TimeSpan ServiceTime => End - Start;

    /// <summary>How late the send left behind its schedule.</summary>
    public TimeSpan SendLag => Start - Scheduled;

    /// <summary>Time to the response headers from the actual send (ab's "Waiting").</summary>
    public TimeSpan Waiting => FirstByte - Start;

    /// <summary>
    /// From the actual send until the app's first middleware began the request: connecting, sending, and above all
    /// waiting in the server's queues for a pool thread. Null when the app sent no handler timing.
    /// </summary>
    public TimeSpan? WaitedForThread => HandlerStart - Start;

    /// <summary>How long the app's handler ran, by its own clock. Null when the app sent no handler timing.</summary>
    public TimeSpan? HandlerTime => HandlerEnd - HandlerStart;

    /// <summary>A response came (any status).</summary>
    public bool Responded => Status != 0;

    /// <summary>Success as vegeta and siege count it: a response with a status from 200 to 399.</summary>
    public bool Succeeded => Error is null && Status is >= 200 and < 400;
}
