using System.Diagnostics;
using System.Globalization;
using Microsoft.Diagnostics.NETCore.Client;
using Tplab.Common;
using Tplab.Processes;

namespace Tplab.Runtime;

/// <summary>
/// A diagnostics connection to one .NET process: attached to a running PID over its diagnostic socket (same user,
/// no ptrace), or to a command tplab starts suspended so nothing of its start-up is missed. Every failure becomes a
/// <see cref="TplabException"/> with the documented exit code (docs/exit-codes.md).
/// </summary>
public sealed class RuntimeConnection : IAsyncDisposable
{
    private readonly DiagnosticsClientConnector? _connector;
    private bool _resumed;

    private RuntimeConnection(int processId, DiagnosticsClient client, ChildProcess? child, DiagnosticsClientConnector? connector)
    {
        ProcessId = processId;
        Client = client;
        Child = child;
        _connector = connector;
    }

    /// <summary>The process connected to.</summary>
    public int ProcessId { get; }

    /// <summary>The diagnostics client for this process.</summary>
    public DiagnosticsClient Client { get; }

    /// <summary>The process tplab started, when it started one (<see cref="LaunchAsync"/>); it is still suspended.</summary>
    public ChildProcess? Child { get; }

    /// <summary>
    /// Connects to a running process; checks it exists, may be attached to and is a .NET process first. A process in
    /// another mount namespace (a container, a private /tmp) is reached through the socket found under /proc/PID/root.
    /// </summary>
    public static async Task<RuntimeConnection> AttachAsync(int processId, CancellationToken cancellationToken)
    {
        var facts = DotNetProcess.Inspect(processId);
        if (facts.Socket is { } socket && DiagnosticSocket.IsInOtherMountNamespace(processId))
        {
            var connector = await DiagnosticsClientConnector.FromDiagnosticPort(socket + ",connect", cancellationToken).ConfigureAwait(false)
                ?? throw AttachErrors.NoSocket(processId);
            return new RuntimeConnection(processId, connector.Instance, null, connector) { Facts = facts };
        }
        return new RuntimeConnection(processId, new DiagnosticsClient(processId), null, null) { Facts = facts };
    }

    /// <summary>What was known about the process when attaching (name, runtime version, socket); null for a started command.</summary>
    public TargetFacts? Facts { get; private init; }

    /// <summary>
    /// Starts <paramref name="command"/> with DOTNET_DiagnosticPorts pointing at a socket tplab listens on, with
    /// <c>suspend</c>, as dotnet-counters does for <c>-- COMMAND</c>; the runtime waits until <see cref="Resume"/>.
    /// </summary>
    public static async Task<RuntimeConnection> LaunchAsync(IReadOnlyList<string> command, TimeSpan timeout, CancellationToken cancellationToken)
    {
        if (command.Count == 0)
        {
            throw TplabException.Usage("nothing to start after --");
        }
        var socket = Path.Combine(Path.GetTempPath(), $"tplab-{Environment.ProcessId}-{Stopwatch.GetTimestamp().ToString(CultureInfo.InvariantCulture)}.socket");
        using var wait = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        wait.CancelAfter(timeout);
        // The listener starts synchronously inside FromDiagnosticPort, before the child exists to connect to it.
        var connecting = DiagnosticsClientConnector.FromDiagnosticPort(socket + ",listen", wait.Token);
        var info = new ProcessStartInfo(command[0]);
        foreach (var arg in command.Skip(1))
        {
            info.ArgumentList.Add(arg);
        }
        info.Environment["DOTNET_DiagnosticPorts"] = socket + ",suspend,connect";
        // A user's program does not watch its stdin as tplab's own do: a watchdog ends it with tplab, even by kill -9.
        var child = ChildProcess.Start(info, command[0], WhenTplabEnds.Kill, cannotStart: ExitCodes.Usage);
        _ = child.Exited.ContinueWith(_ => wait.Cancel(), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        DiagnosticsClientConnector? connector = null;
        try
        {
            connector = await connecting.ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
        }
        if (connector is null)
        {
            // Read before stopping it: a command still running here never connected, whatever it does later.
            var exited = child.HasExited;
            await child.DisposeAsync(TimeSpan.Zero).ConfigureAwait(false);
            cancellationToken.ThrowIfCancellationRequested();
            var why = exited
                ? $"exited with code {child.ExitCode?.ToString(CultureInfo.InvariantCulture) ?? "?"} before a .NET runtime connected{Output(child)}"
                : $"did not connect within {timeout.TotalSeconds.ToString("0", CultureInfo.InvariantCulture)} s and was stopped";
            throw new TplabException(ExitCodes.NoProcess,
                $"{command[0]} {why}: it is not a .NET program, or its runtime is older than .NET {RuntimeVersion.StartupSuspend} (watching from start-up needs .NET {RuntimeVersion.StartupSuspend}+)");
        }
        return new RuntimeConnection(child.Id, connector.Instance, child, connector);
    }

    private static string Output(ChildProcess child) => child.RecentOutput.Any(l => !string.IsNullOrWhiteSpace(l)) ? $" (its last output: {child.LastLines(1)})" : "";

    /// <summary>Lets a process started by <see cref="LaunchAsync"/> run; a no-op for an attached one.</summary>
    public void Resume()
    {
        if (Child is not null)
        {
            Client.ResumeRuntime();
            _resumed = true;
        }
    }

    /// <summary>Starts a watch-style EventPipe session (no rundown, no stacks); maps a missing or forbidden diagnostic socket to its exit code.</summary>
    public Task<EventPipeSession> StartSessionAsync(IReadOnlyList<EventPipeProvider> providers, CancellationToken cancellationToken) =>
        StartSessionAsync(new EventPipeSessionConfiguration(providers, circularBufferSizeMB: 16, requestRundown: false, requestStackwalk: false), cancellationToken);

    /// <summary>
    /// Longest wait for a runtime to answer the session request. A runtime answers in milliseconds, even a busy one
    /// (its diagnostic server has its own thread); a socket that accepts and never answers would otherwise hang tplab.
    /// Set for the calling async flow only (the fault tests shorten it for their own commands, beside others').
    /// </summary>
    internal static TimeSpan AnswerTimeout
    {
        get => FlowAnswerTimeout.Value ?? TimeSpan.FromSeconds(15);
        set => FlowAnswerTimeout.Value = value;
    }

    private static readonly AsyncLocal<TimeSpan?> FlowAnswerTimeout = new();

    /// <summary>Starts an EventPipe session with <paramref name="configuration"/>; the same error mapping.</summary>
    public async Task<EventPipeSession> StartSessionAsync(EventPipeSessionConfiguration configuration, CancellationToken cancellationToken)
    {
        using var answer = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        answer.CancelAfter(AnswerTimeout);
        try
        {
            return await Client.StartEventPipeSessionAsync(configuration, answer.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw new TplabException(ExitCodes.NoProcess,
                $"process {ProcessId.ToString(CultureInfo.InvariantCulture)} did not answer on its diagnostic socket within {DurationText.Format(AnswerTimeout)} (a stalled runtime, or something else listening there)", e);
        }
        catch (Exception e) when (AttachErrors.IsPermissionDenied(e))
        {
            throw AttachErrors.PermissionDenied(ProcessId, e);
        }
        catch (ServerNotAvailableException e)
        {
            throw ProcessFiles.IsAlive(ProcessId) ? AttachErrors.NoSocket(ProcessId, e) : AttachErrors.Gone(ProcessId, "before the session began", e);
        }
        catch (Exception e) when (e is EndOfStreamException or IOException)
        {
            throw AttachErrors.Gone(ProcessId, "before the session began", e);
        }
        catch (Exception e) when (e is UnsupportedCommandException or ServerErrorException)
        {
            throw new TplabException(ExitCodes.NoProcess, $"process {ProcessId} refused an EventPipe session: {e.Message}", e);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_connector is not null)
        {
            await _connector.DisposeAsync().ConfigureAwait(false);
        }
        if (Child is not null)
        {
            // A runtime still suspended at start-up runs no code that could end gracefully: no grace, kill it now.
            await Child.DisposeAsync(_resumed ? TimeSpan.FromSeconds(10) : TimeSpan.Zero).ConfigureAwait(false);
        }
    }
}
