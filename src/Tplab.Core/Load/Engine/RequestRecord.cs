namespace Tplab.Load.Engine;

/// <summary>
/// One request as it happened. Times are offsets from the start of the run: when it should have left
/// (<see cref="Scheduled"/>; equal to <see cref="Start"/> in closed loop), when it left, when the response
/// headers arrived, and when the body was read. <see cref="Status"/> is 0 when no response came.
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
    int User)
{
    /// <summary>Latency as a user sees it: from the scheduled send to the end (coordinated-omission free in open loop).</summary>
    public TimeSpan Latency => End - Scheduled;

    /// <summary>Service time: from the actual send to the end (what ab, JMeter, siege and vegeta call latency).</summary>
    public TimeSpan ServiceTime => End - Start;

    /// <summary>How late the send left behind its schedule.</summary>
    public TimeSpan SendLag => Start - Scheduled;

    /// <summary>Time to the response headers from the actual send (ab's "Waiting").</summary>
    public TimeSpan Waiting => FirstByte - Start;

    /// <summary>A response came (any status).</summary>
    public bool Responded => Status != 0;

    /// <summary>Success as vegeta and siege count it: a response with a status from 200 to 399.</summary>
    public bool Succeeded => Error is null && Status is >= 200 and < 400;
}
