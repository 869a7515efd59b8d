using System.CommandLine;
using Tplab.Common;
using Tplab.Launch;

namespace Tplab.Cli.Commands;

/// <summary>Options of <c>tplab serve</c>.</summary>
internal sealed record ServeCommandOptions(int Port, Uri? Downstream, string? ConnectionString, bool NoDb, ThreadPoolSettings ThreadPool);

/// <summary><c>tplab serve</c>: the target service with every seed variant, in its own process.</summary>
internal static class ServeCommand
{
    public static Command Create()
    {
        var port = new Option<int>("--port") { Description = "Port on 127.0.0.1; 0 picks a free one", DefaultValueFactory = _ => 5000 };
        var downstream = new Option<string?>("--downstream") { Description = "Downstream URL for /http-*; default: start a private one" };
        var pg = new Option<string?>("--pg") { Description = "Npgsql connection string for /db-*; default: $TPLAB_PG, else a private PostgreSQL" };
        var noDb = new Option<bool>("--no-db") { Description = "Do not start a database; /db-* answer 503" };
        var (minThreads, knobs) = ThreadPoolOptions.Create();
        var command = new Command("serve", "Run the target ASP.NET Core service (all seed variants) until Ctrl+C")
        {
            port, downstream, pg, noDb, minThreads, knobs,
        };
        command.SetAction(async (result, ct) =>
        {
            var options = new ServeCommandOptions(
                result.GetValue(port),
                ParseDownstream(result.GetValue(downstream)),
                result.GetValue(pg) ?? NullIfEmpty(Environment.GetEnvironmentVariable("TPLAB_PG")),
                result.GetValue(noDb),
                ThreadPoolOptions.Bind(result, minThreads, knobs));
            return await RunAsync(options, ct);
        });
        return command;
    }

    private static async Task<int> RunAsync(ServeCommandOptions options, CancellationToken ct)
    {
        await using var stack = await TargetStack.StartAsync(
            new TargetStackOptions { Downstream = options.Downstream, ConnectionString = options.ConnectionString, Database = !options.NoDb }, ct);
        if (stack.DatabaseUnavailable is { } why)
        {
            await Console.Error.WriteLineAsync($"tplab: /db-* routes will answer 503: {why}");
        }
        await using var target = await stack.StartTargetAsync(options.ThreadPool, options.Port, ct);
        foreach (var line in target.Process.RecentOutput.Where(l => l.StartsWith("tplab-target:", StringComparison.Ordinal)))
        {
            await Console.Error.WriteLineAsync(line);
        }
        var database = stack.ConnectionString is null ? "none" : stack.PrivatePostgres is { } pg ? $"private PostgreSQL in {pg.Folder}" : "given";
        Console.WriteLine($"tplab serve: listening on {target.BaseAddress} (target pid {target.ProcessId}, pool {options.ThreadPool.Label()}, downstream {stack.Downstream}, database {database})");
        try
        {
            await Task.WhenAny(target.Process.Exited, Task.Delay(Timeout.Infinite, ct));
        }
        finally
        {
            Console.Error.WriteLine("tplab serve: stopping");
        }
        return target.Process.HasExited && !ct.IsCancellationRequested
            ? throw new TplabException(ExitCodes.Environment, $"the target exited: {target.Process.LastLines()}")
            : ExitCodes.Ok;
    }

    private static Uri? ParseDownstream(string? text) =>
        text is null ? null
        : Uri.TryCreate(text, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https" ? uri
        : throw TplabException.Usage($"--downstream must be an absolute http URL, got '{text}'");

    private static string? NullIfEmpty(string? s) => string.IsNullOrWhiteSpace(s) ? null : s;
}
