namespace Tplab.Launch;

/// <summary>
/// A running service the lab loads, watches and diagnoses: tplab's own target or the user's service.
/// Disposing stops it when tplab started it.
/// </summary>
public interface IServiceInstance : IAsyncDisposable
{
    /// <summary>The .NET process to watch and diagnose.</summary>
    int ProcessId { get; }

    /// <summary>http://host:port/ of the service.</summary>
    Uri BaseAddress { get; }

    /// <summary>An address on the service, such as <c>/orders/42</c>.</summary>
    Uri Url(string pathAndQuery) => new(BaseAddress, pathAndQuery.TrimStart('/'));
}

/// <summary>Starts a fresh instance of a service with given thread-pool settings (one per lab scenario).</summary>
public interface IServiceLauncher
{
    /// <summary>Whether each instance is a fresh process with these settings (false for an already-running service).</summary>
    bool StartsFresh { get; }

    /// <summary>Starts an instance; throws <see cref="Common.TplabException"/> with one line when it cannot.</summary>
    Task<IServiceInstance> StartAsync(ThreadPoolSettings settings, CancellationToken cancellationToken);
}
