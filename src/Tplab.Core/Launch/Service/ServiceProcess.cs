using System.Globalization;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Launch.Service;

/// <summary>
/// The user's service started for one scenario, with the scenario's pool settings applied the way the user applies
/// them: runtimeconfig.json, <c>DOTNET_</c> environment, or the app's own setting. Ends with tplab (see <see cref="GuardedCommand"/>).
/// </summary>
public sealed class ServiceProcess : IServiceInstance
{
    private readonly GuardedCommand _command;

    private ServiceProcess(GuardedCommand command, Uri baseAddress, int processId, string commandLine)
    {
        _command = command;
        BaseAddress = baseAddress;
        ProcessId = processId;
        CommandLine = commandLine;
    }

    /// <inheritdoc/>
    public int ProcessId { get; }

    /// <inheritdoc/>
    public Uri BaseAddress { get; }

    /// <summary>The command line actually run (with a generated runtimeconfig when settings needed one).</summary>
    public string CommandLine { get; }

    /// <inheritdoc/>
    public string? Exited => ProcessFiles.IsAlive(ProcessId) && !_command.HasExited ? null : _command.Exited ?? "exited";

    /// <summary>Every process of the service's group (the command and what it started), for tests of cleanup.</summary>
    public IReadOnlyList<int> Members() => _command.Members();

    /// <summary>Starts the service, waits until it answers, and finds its .NET process.</summary>
    public static async Task<ServiceProcess> StartAsync(ServiceDefinition service, ThreadPoolSettings settings, CancellationToken cancellationToken)
    {
        var command = service.Command ?? throw new ArgumentException("a service without a command is attached, not started", nameof(service));
        var (commandLine, environment, expected) = Apply(service, command, settings);
        var guarded = await GuardedCommand.StartAsync(commandLine, service.WorkingDirectory, environment, "the service", cancellationToken).ConfigureAwait(false);
        try
        {
            using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            deadline.CancelAfter(service.StartTimeout);
            var address = await ServiceAddress.ReadyAsync(guarded, expected, service, deadline.Token, cancellationToken).ConfigureAwait(false);
            var pid = await DotnetProcessAsync(guarded, cancellationToken).ConfigureAwait(false);
            return new ServiceProcess(guarded, address, pid, commandLine);
        }
        catch
        {
            await guarded.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>
    /// The command line and environment with the pool settings applied, and the address the service will listen on
    /// (internal for tests): service.url; else the address in ASPNETCORE_URLS, a port 0 there replaced by a free port
    /// tplab chose; else a free loopback port tplab chose and passed in ASPNETCORE_URLS.
    /// </summary>
    internal static (string CommandLine, Dictionary<string, string> Environment, Uri Address) Apply(ServiceDefinition service, string command, ThreadPoolSettings settings)
    {
        var environment = service.Environment.ToDictionary(kv => kv.Key, kv => kv.Value, StringComparer.Ordinal);
        var runtimeConfig = settings.RuntimeConfigKnobs.ToList();
        foreach (var (name, value) in settings.EnvironmentKnobs)
        {
            environment[name] = value;
        }
        if (settings.MinThreads is int min)
        {
            switch (service.EffectiveMinThreadsVia)
            {
                case MinThreadsVia.RuntimeConfig:
                    runtimeConfig.Add(new(ThreadPoolForms.MinThreadsKnob, min.ToString(CultureInfo.InvariantCulture)));
                    break;
                case MinThreadsVia.Environment:
                    environment[ThreadPoolForms.MinThreadsEnvironment] = ThreadPoolForms.Hex(min);
                    break;
                case MinThreadsVia.Setting:
                    environment[service.MinThreadsSetting!] = min.ToString(CultureInfo.InvariantCulture);
                    break;
            }
        }
        if (runtimeConfig.Count > 0)
        {
            var dotnet = DotnetCommand.TryParse(command) ?? throw TplabException.Usage(
                $"service.command: runtimeconfig settings ({string.Join(", ", runtimeConfig.Select(k => k.Key))}) need a plain 'dotnet APP.dll' command; use minThreadsVia: environment, or DOTNET_ knobs");
            command = dotnet.WithRuntimeConfig(service.WorkingDirectory, runtimeConfig);
        }
        return (command, environment, service.Url ?? ServiceAddress.Choose(environment));
    }

    // The .NET process may be the command itself or one it started (dotnet run, a script): the group member that
    // publishes a diagnostic socket. Its socket exists before Kestrel listens, so it is there once the service is ready.
    // `dotnet run` is itself a .NET process with a socket, and the app is its child: the innermost one is the service.
    private static async Task<int> DotnetProcessAsync(GuardedCommand command, CancellationToken ct)
    {
        for (var attempt = 0; attempt < 20; attempt++)
        {
            var dotnet = command.Members().Where(pid => DiagnosticSocket.Find(pid) is not null).ToHashSet();
            var found = dotnet.Where(pid => !dotnet.Any(other => other != pid && IsAncestor(pid, other))).Order().FirstOrDefault();
            if (found > 0)
            {
                return found;
            }
            await Task.Delay(100, ct).ConfigureAwait(false);
        }
        throw new TplabException(ExitCodes.Environment,
            "the service answers but none of its processes is a .NET process with a diagnostic socket (is DOTNET_EnableDiagnostics=0 set?)");
    }

    private static bool IsAncestor(int ancestor, int pid)
    {
        for (var (p, hops) = (pid, 0); p > 1 && hops < 64; hops++)
        {
            p = int.TryParse(ProcessFiles.Status(p, "PPid")?.Trim(), System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var parent) ? parent : 0;
            if (p == ancestor)
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>Stops the service's whole process group.</summary>
    public ValueTask DisposeAsync() => _command.DisposeAsync();
}
