namespace Tplab.Load.Summary;

/// <summary>
/// The figures of one request template (one line of a targets file, one endpoint of a plan): vegeta's most asked-for
/// missing report (#587). Times in milliseconds.
/// </summary>
public sealed record TargetSummary
{
    /// <summary>Index in the load's targets.</summary>
    public required int Index { get; init; }

    /// <summary>The template's label: its name, or "METHOD /path?query".</summary>
    public required string Label { get; init; }

    /// <summary>The method sent.</summary>
    public required string Method { get; init; }

    /// <summary>The URL sent to.</summary>
    public required Uri Url { get; init; }

    /// <summary>Requests of this template that ended.</summary>
    public required long Requests { get; init; }

    /// <summary>Responses with status 200–399.</summary>
    public required long Succeeded { get; init; }

    /// <summary>Everything else.</summary>
    public long Failed => Requests - Succeeded;

    /// <summary>Requests that ended in a transport error.</summary>
    public required long TransportErrors { get; init; }

    /// <summary>From this template's first send to the end of its last request.</summary>
    public required double DurationSeconds { get; init; }

    /// <summary>Latency from the scheduled send (closed loop: from the send).</summary>
    public required LatencyStats LatencyMs { get; init; }

    /// <summary>Where this template's time went (waited for a thread, handler, rest), when the app sent the Server-Timing handler stamp; else null.</summary>
    public HandlerTiming? HandlerTiming { get; init; }

    /// <summary>Responses by status code (0: no response).</summary>
    public required IReadOnlyDictionary<int, long> StatusCodes { get; init; }

    /// <summary>Bytes received.</summary>
    public required long BytesIn { get; init; }

    /// <summary>Bytes sent.</summary>
    public required long BytesOut { get; init; }
}
