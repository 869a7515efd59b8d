namespace Tplab.Watch;

/// <summary>
/// What an <see cref="Running.IStarvingAction"/> found holding the pool, in the words an alert shows: the endpoint, the
/// application method and the blocking call. Exporters publish it (<c>tplab_culprit_info</c>, an OTLP log record).
/// </summary>
/// <param name="ProcessId">The diagnosed process.</param>
/// <param name="Endpoint">The endpoint of the held requests (<c>GET /orders/{id}</c>), or "" when none was seen.</param>
/// <param name="Method">The application method that makes the call, or "" when none is known.</param>
/// <param name="Call">The blocking call (<c>Thread.Sleep</c>, <c>Task.Result</c>).</param>
/// <param name="Threads">Pool threads it held on average over the capture.</param>
/// <param name="File">Where the whole diagnosis was written.</param>
public sealed record StarvingCulprit(int ProcessId, string Endpoint, string Method, string Call, double Threads, string File);
