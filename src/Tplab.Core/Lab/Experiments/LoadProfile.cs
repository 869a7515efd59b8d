using System.Globalization;

namespace Tplab.Lab.Experiments;

/// <summary>Which of the peers' load models a profile uses.</summary>
public enum LoadModel
{
    /// <summary>N users, each sending its next request when its previous one ended (ab, JMeter, siege).</summary>
    Closed,

    /// <summary>Requests leave on a fixed schedule whatever the server does (vegeta).</summary>
    Open,
}

/// <summary>
/// The shape of the load in one scenario, in the seeds' terms: ab's -n/-c, JMeter's threads × loops with
/// ramp-up, siege's users for a duration with think time, vegeta's rate for a duration.
/// </summary>
public sealed record LoadProfile
{
    /// <summary>Closed or open loop.</summary>
    public LoadModel Model { get; init; } = LoadModel.Closed;

    /// <summary>Closed loop: number of users.</summary>
    public int Concurrency { get; init; } = 1;

    /// <summary>Closed loop: total requests (ab -n); null when bounded otherwise.</summary>
    public int? Requests { get; init; }

    /// <summary>Closed loop: requests per user (JMeter loop count); null when bounded otherwise.</summary>
    public int? Loops { get; init; }

    /// <summary>Closed loop: users start evenly over this time, the first at once (JMeter).</summary>
    public TimeSpan RampUp { get; init; }

    /// <summary>Think time between a user's requests, uniform in [min, max] (siege -d); zero for none.</summary>
    public TimeSpan ThinkMin { get; init; }

    /// <summary>Upper bound of the think time.</summary>
    public TimeSpan ThinkMax { get; init; }

    /// <summary>Open loop: requests per second.</summary>
    public double Rate { get; init; }

    /// <summary>How long to send (siege -t, vegeta -duration); null when bounded by count.</summary>
    public TimeSpan? Duration { get; init; }

    /// <summary>Per-request timeout (ab's default is 30 s).</summary>
    public TimeSpan Timeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>How a reader of the seed would write this load, e.g. <c>ab -n 100 -c 100</c>.</summary>
    public string Describe()
    {
        var c = CultureInfo.InvariantCulture;
        if (Model == LoadModel.Open)
        {
            return string.Create(c, $"{Rate:0.##} req/s for {Seconds(Duration)}");
        }
        var parts = new List<string> { string.Create(c, $"{Concurrency} users") };
        if (Requests is int n)
        {
            parts.Add(string.Create(c, $"{n} requests"));
        }
        if (Loops is int l)
        {
            parts.Add(string.Create(c, $"{l} loops"));
        }
        if (RampUp > TimeSpan.Zero)
        {
            parts.Add($"ramp-up {Seconds(RampUp)}");
        }
        if (Duration is { } d)
        {
            parts.Add($"for {Seconds(d)}");
        }
        if (ThinkMax > TimeSpan.Zero)
        {
            parts.Add(string.Create(c, $"think {ThinkMin.TotalMilliseconds:0}–{ThinkMax.TotalMilliseconds:0} ms"));
        }
        return string.Join(", ", parts);
    }

    /// <summary>The most requests this profile can send, for progress bars; null when only time bounds it.</summary>
    public int? ExpectedRequests => Model == LoadModel.Open
        ? (int)Math.Round(Rate * (Duration ?? TimeSpan.Zero).TotalSeconds)
        : Requests ?? (Loops is int l ? l * Concurrency : null);

    private static string Seconds(TimeSpan? t) =>
        t is { } v ? string.Create(CultureInfo.InvariantCulture, $"{v.TotalSeconds:0.##} s") : "?";
}
