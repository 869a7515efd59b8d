using System.CommandLine;
using Tplab.Launch;

namespace Tplab.Cli.Commands;

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
            var options = new ServeOptions
            {
                Port = result.GetValue(port),
                Downstream = ServeOptions.ParseDownstream(result.GetValue(downstream)),
                ConnectionString = TargetStackOptions.ConnectionStringOrEnvironment(result.GetValue(pg)),
                Database = !result.GetValue(noDb),
                ThreadPool = ThreadPoolOptions.Bind(result, minThreads, knobs),
            }.Validated();
            return await ServeRunner.RunAsync(options, Console.Out, Console.Error, ct);
        });
        return command;
    }
}
