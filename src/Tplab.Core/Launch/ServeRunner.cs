using System.Globalization;
using Tplab.Common;

namespace Tplab.Launch;

/// <summary>What <c>tplab serve</c> runs: the target on a port, its downstream and database, its pool settings.</summary>
public sealed record ServeOptions
{
    /// <summary>Port on 127.0.0.1; 0 picks a free one. Default 5000.</summary>
    public int Port { get; init; } = 5000;

    /// <summary>A downstream to call; null starts a private one.</summary>
    public Uri? Downstream { get; init; }

    /// <summary>The database; null starts a private PostgreSQL when installed.</summary>
    public string? ConnectionString { get; init; }

    /// <summary>False starts no database (the db variants answer 503). Default true.</summary>
    public bool Database { get; init; } = true;

    /// <summary>The target's pool settings.</summary>
    public ThreadPoolSettings ThreadPool { get; init; } = ThreadPoolSettings.Default;

    /// <summary>These options, or a usage error naming the first bad value; checked before any process starts.</summary>
    public ServeOptions Validated()
    {
        new TargetOptions { Port = Port, ThreadPool = ThreadPool }.Validated();
        return Downstream is null || (Downstream.IsAbsoluteUri && Downstream.Scheme is "http" or "https")
            ? this
            : throw TplabException.Usage($"--downstream must be an absolute http URL, got '{Downstream}'");
    }

    /// <summary>A downstream URL as typed, or a usage error naming it.</summary>
    public static Uri? ParseDownstream(string? text) =>
        text is null ? null
        : Uri.TryCreate(text, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https" ? uri
        : throw TplabException.Usage($"--downstream must be an absolute http URL, got '{text}'");
}

/// <summary><c>tplab serve</c>: starts the stack and the target, says where it listens, and waits for Ctrl+C or the target's end.</summary>
public static class ServeRunner
{
    /// <summary>Runs until <paramref name="ct"/> is cancelled (0) or the target exits (3, with its last lines).</summary>
    public static async Task<int> RunAsync(ServeOptions options, TextWriter output, TextWriter error, CancellationToken ct)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);
        options.Validated();
        await using var stack = await TargetStack.StartAsync(
            new TargetStackOptions { Downstream = options.Downstream, ConnectionString = options.ConnectionString, Database = options.Database }, ct).ConfigureAwait(false);
        if (stack.DatabaseUnavailable is { } why)
        {
            await error.WriteLineAsync($"tplab: /db-* routes will answer 503: {why}").ConfigureAwait(false);
        }
        await using var target = await stack.StartTargetAsync(options.ThreadPool, options.Port, ct).ConfigureAwait(false);
        foreach (var line in target.Process.RecentOutput.Where(l => l.StartsWith("tplab-target:", StringComparison.Ordinal)))
        {
            await error.WriteLineAsync(TerminalText.Escape(line)).ConfigureAwait(false);
        }
        var database = stack.ConnectionString is null ? "none" : stack.PrivatePostgres is { } pg ? $"private PostgreSQL in {pg.Folder}" : "given";
        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
            $"tplab serve: listening on {target.BaseAddress} (target pid {target.ProcessId}, pool {options.ThreadPool.Label()}, downstream {stack.Downstream}, database {database})")).ConfigureAwait(false);
        try
        {
            await Task.WhenAny(target.Process.Exited, Task.Delay(Timeout.Infinite, ct)).ConfigureAwait(false);
        }
        finally
        {
            await error.WriteLineAsync("tplab serve: stopping").ConfigureAwait(false);
        }
        return target.Process.HasExited && !ct.IsCancellationRequested
            ? throw new TplabException(ExitCodes.Environment, $"the target exited: {target.Process.LastLines()}")
            : ExitCodes.Ok;
    }
}
