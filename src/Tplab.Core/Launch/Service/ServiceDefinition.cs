using Tplab.Common;

namespace Tplab.Launch.Service;

/// <summary>How a scenario's minimum worker threads reach the user's service (docs/lab.md, "Your own service").</summary>
public enum MinThreadsVia
{
    /// <summary><c>System.Threading.ThreadPool.MinThreads</c> in a generated runtimeconfig.json (what ThreadPoolMinThreads in the project produces); needs a <c>dotnet APP.dll</c> command.</summary>
    RuntimeConfig,

    /// <summary><c>DOTNET_ThreadPool_ForceMinWorkerThreads</c>, written in hexadecimal as the runtime reads it.</summary>
    Environment,

    /// <summary>An environment variable the app reads itself and passes to <c>ThreadPool.SetMinThreads</c>, in decimal.</summary>
    Setting,
}

/// <summary>
/// The user's own service in a plan file: a command tplab starts fresh for each scenario (with its working folder and
/// environment), or an already-running process (URL + pid) that tplab only loads and watches.
/// </summary>
public sealed record ServiceDefinition
{
    /// <summary>A shell command line that starts the service, e.g. <c>dotnet out/MyApp.dll</c>; null for a running process.</summary>
    public string? Command { get; init; }

    /// <summary>Folder the command runs in (absolute; a plan's relative folder is resolved against the plan's folder).</summary>
    public string WorkingDirectory { get; init; } = ".";

    /// <summary>Extra environment variables for the command.</summary>
    public IReadOnlyList<KeyValuePair<string, string>> Environment { get; init; } = [];

    /// <summary>
    /// The service's base address; null: tplab chooses a free loopback port and passes it in ASPNETCORE_URLS (a port 0
    /// in the plan's own ASPNETCORE_URLS is replaced the same way), or finds where the app's configuration moved it.
    /// </summary>
    public Uri? Url { get; init; }

    /// <summary>The path that answers 2xx once the service is ready; null: any HTTP answer at the base address.</summary>
    public string? ReadyPath { get; init; }

    /// <summary>Longest wait for readiness. Default 60 s.</summary>
    public TimeSpan StartTimeout { get; init; } = TimeSpan.FromSeconds(60);

    /// <summary>An already-running service's process id; the lab then starts nothing and cannot change its pool.</summary>
    public int? ProcessId { get; init; }

    /// <summary>How minimum threads are applied; null picks RuntimeConfig for a <c>dotnet APP.dll</c> command, else Environment.</summary>
    public MinThreadsVia? MinThreadsVia { get; init; }

    /// <summary>The environment variable for <see cref="Service.MinThreadsVia.Setting"/>.</summary>
    public string? MinThreadsSetting { get; init; }

    /// <summary>Requests of the scenario's mix sent two at a time before the measured load (compiles the code paths). Default 8.</summary>
    public int WarmUpRequests { get; init; } = 8;

    /// <summary>The way minimum threads are applied for this command.</summary>
    public MinThreadsVia EffectiveMinThreadsVia =>
        MinThreadsVia ?? (DotnetCommand.TryParse(Command) is not null ? Service.MinThreadsVia.RuntimeConfig : Service.MinThreadsVia.Environment);

    /// <summary>A short description for tables and summary.json.</summary>
    public string Describe() => Command is { } c ? c : $"process {ProcessId} at {Url}";

    /// <summary>
    /// A usage error when the command's working folder is not there: called by run and tune before the results folder
    /// is created, so that exit 2 creates nothing (the start would find it missing only after).
    /// </summary>
    public void CheckWorkingFolder()
    {
        if (Command is not null && !Directory.Exists(WorkingDirectory))
        {
            throw TplabException.Usage(File.Exists(WorkingDirectory)
                ? $"service.workingDirectory {WorkingDirectory}: is a file, not a folder"
                : $"service.workingDirectory {WorkingDirectory}: no such folder");
        }
    }
}
