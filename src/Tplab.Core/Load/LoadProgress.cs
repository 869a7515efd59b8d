namespace Tplab.Load;

/// <summary>A live view of a run, reported about once a second: elapsed, sent, done, in flight, errors, p99 so far.</summary>
public sealed record LoadProgress(TimeSpan Elapsed, long Sent, long Done, long InFlight, long Errors, double P99Ms);
