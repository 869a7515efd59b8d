using System.Diagnostics;
using System.Globalization;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Launch;

/// <summary>
/// A running target (the seed variants) or downstream process, always separate from tplab's own
/// process: its thread pool is the thing measured. Ends when disposed, or when tplab ends.
/// </summary>
public sealed class TargetProcess : IServiceInstance
{
    /// <summary>The line the target prints once it listens.</summary>
    public const string ReadyPrefix = "tplab-target listening on ";

    private readonly ChildProcess _child;

    private TargetProcess(ChildProcess child, Uri address)
    {
        _child = child;
        BaseAddress = address;
    }

    /// <summary>http://127.0.0.1:port/</summary>
    public Uri BaseAddress { get; }

    /// <summary>Process id, for watch and diagnose.</summary>
    public int ProcessId => _child.Id;

    /// <summary>The underlying child process (output, exit).</summary>
    public ChildProcess Process => _child;

    /// <summary>Starts the target service with the seed variants.</summary>
    public static Task<TargetProcess> StartTargetAsync(TargetOptions options, CancellationToken cancellationToken = default) =>
        StartAsync("serve", options, cancellationToken);

    /// <summary>Starts the downstream service the http variants call.</summary>
    public static Task<TargetProcess> StartDownstreamAsync(int port = 0, CancellationToken cancellationToken = default) =>
        StartAsync("downstream", new TargetOptions { Port = port }, cancellationToken);

    private static async Task<TargetProcess> StartAsync(string mode, TargetOptions options, CancellationToken cancellationToken)
    {
        options.ThreadPool.Validated();
        if (options.Port is < 0 or > 65535)
        {
            throw TplabException.Usage($"--port must be between 0 and 65535, got {options.Port}");
        }
        var runtimeConfig = RuntimeConfigWriter.Write(DotnetHost.TargetFile(".runtimeconfig.json"), options.ThreadPool.RuntimeConfigKnobs);
        var commandLine = new Tplab.Target.TargetCommandLine
        {
            Mode = mode, Port = options.Port, WatchParent = true, RequestTimeout = options.RequestTimeout,
            Downstream = options.Downstream?.ToString(), MinThreads = options.ThreadPool.MinThreads,
        };
        var info = new ProcessStartInfo(DotnetHost.Path)
        {
            ArgumentList = { "exec", "--runtimeconfig", runtimeConfig, "--depsfile", DotnetHost.TargetFile(".deps.json"), DotnetHost.TargetFile(".dll") },
        };
        foreach (var argument in commandLine.ToArguments())
        {
            info.ArgumentList.Add(argument);
        }
        // The connection string goes through the environment so it never shows in `ps`.
        info.Environment.Remove(Tplab.Target.TargetCommandLine.ConnectionStringVariable);
        if (options.ConnectionString is not null)
        {
            info.Environment[Tplab.Target.TargetCommandLine.ConnectionStringVariable] = options.ConnectionString;
        }
        foreach (var (name, value) in options.ThreadPool.EnvironmentKnobs.Concat(options.Environment))
        {
            info.Environment[name] = value;
        }
        var child = ChildProcess.Start(info, mode == "serve" ? "the target service" : "the downstream service");
        try
        {
            var line = await child.WaitForLineAsync(l => l.StartsWith(ReadyPrefix, StringComparison.Ordinal), options.StartTimeout, cancellationToken).ConfigureAwait(false);
            var url = line[ReadyPrefix.Length..].Split(' ')[0];
            return new TargetProcess(child, new Uri(url.TrimEnd('/') + "/"));
        }
        catch
        {
            await child.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>An address on the target, such as <c>/sleep?ms=1000</c>.</summary>
    public Uri Url(string pathAndQuery) => new(BaseAddress, pathAndQuery.TrimStart('/'));

    public ValueTask DisposeAsync() => _child.DisposeAsync();
}
