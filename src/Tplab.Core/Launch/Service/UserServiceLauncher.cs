using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Launch.Service;

/// <summary>Starts the user's service fresh for each scenario, or hands out the already-running one.</summary>
public sealed class UserServiceLauncher(ServiceDefinition service) : IServiceLauncher
{
    /// <summary>The service this launcher starts.</summary>
    public ServiceDefinition Service => service;

    /// <inheritdoc/>
    public bool StartsFresh => service.Command is not null;

    /// <inheritdoc/>
    public async Task<IServiceInstance> StartAsync(ThreadPoolSettings settings, CancellationToken cancellationToken)
    {
        if (service.Command is not null)
        {
            return await ServiceProcess.StartAsync(service, settings, cancellationToken).ConfigureAwait(false);
        }
        var pid = service.ProcessId ?? throw TplabException.Usage("service: give a command, or the url and pid of a running process");
        if (settings != ThreadPoolSettings.Default)
        {
            throw TplabException.Usage($"service: process {pid} is already running, so its pool settings cannot change ({settings.Label()}); give service.command to let tplab start it");
        }
        if (!ProcessFiles.IsAlive(pid))
        {
            throw new TplabException(ExitCodes.NoProcess, $"service: no process with id {pid}");
        }
        return new RunningService(pid, service.Url!);
    }

    /// <summary>A service tplab did not start: disposing leaves it running.</summary>
    private sealed class RunningService(int processId, Uri baseAddress) : IServiceInstance
    {
        public int ProcessId => processId;

        public Uri BaseAddress => baseAddress;

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
