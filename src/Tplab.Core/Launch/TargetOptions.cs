namespace Tplab.Launch;

/// <summary>How to start a target (or downstream) process.</summary>
public sealed record TargetOptions
{
    /// <summary>Port on 127.0.0.1; 0 (the default) lets the OS pick a free one.</summary>
    public int Port { get; init; }

    /// <summary>Base address of the downstream service the http variants call; null leaves them answering 502.</summary>
    public Uri? Downstream { get; init; }

    /// <summary>Npgsql connection string for the db variants; null leaves them answering 503.</summary>
    public string? ConnectionString { get; init; }

    /// <summary>Thread-pool settings of the target's runtime.</summary>
    public ThreadPoolSettings ThreadPool { get; init; } = ThreadPoolSettings.Default;

    /// <summary>Timeout of the target's own calls to the downstream (default 30 s).</summary>
    public TimeSpan RequestTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>How long to wait for the ready line (default 30 s).</summary>
    public TimeSpan StartTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Extra environment variables for the target process.</summary>
    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();
}
