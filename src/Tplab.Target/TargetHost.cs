using System.Net;
using Npgsql;
using Tplab.Target.Infrastructure;

namespace Tplab.Target;

/// <summary>Builds and runs the target web app (seed variants) or the downstream service.</summary>
internal static class TargetHost
{
    /// <summary>The line printed once Kestrel listens; launchers wait for it.</summary>
    public const string ReadyPrefix = "tplab-target listening on ";

    public static async Task<int> RunAsync(string[] args)
    {
        TargetCommandLine options;
        try
        {
            options = TargetCommandLine.Parse(args, Environment.GetEnvironmentVariable(TargetCommandLine.ConnectionStringVariable));
        }
        catch (ArgumentException e)
        {
            await Console.Error.WriteLineAsync($"tplab-target: {e.Message}");
            return 2;
        }

        // Applied before anything touches the pool, the way seeds 000, 002 and 003 did it.
        if (options.MinThreads is int min)
        {
            ThreadPool.GetMinThreads(out _, out var io);
            if (!ThreadPool.SetMinThreads(min, io))
            {
                // The runtime's answer is the experiment's data: report it, keep serving, /threads shows the real minimum.
                ThreadPool.GetMinThreads(out var kept, out _);
                await Console.Error.WriteLineAsync($"tplab-target: ThreadPool.SetMinThreads({min}, {io}) returned false; the minimum stays {kept}");
            }
        }

        if (options.WatchParent)
        {
            ParentWatch.ExitWhenStdinCloses();
        }

        WebApplication app;
        try
        {
            app = options.Mode == "downstream" ? BuildDownstream(options) : BuildTarget(options);
        }
        catch (ArgumentException e)
        {
            await Console.Error.WriteLineAsync($"tplab-target: {e.Message.ReplaceLineEndings(" ")}");
            return 2;
        }
        try
        {
            await app.StartAsync();
        }
        catch (IOException e)
        {
            // Kestrel's "Failed to bind to address …: address already in use": one line for the launcher to quote.
            await Console.Error.WriteLineAsync($"tplab-target: {e.Message.ReplaceLineEndings(" ")}");
            return 3;
        }
        var address = app.Urls.First();
        Console.Out.WriteLine($"{ReadyPrefix}{address} (pid {Environment.ProcessId}, mode {options.Mode})");
        Console.Out.Flush();
        await app.WaitForShutdownAsync();
        return 0;
    }

    private static WebApplication BuildTarget(TargetCommandLine options)
    {
        var builder = CreateBuilder(options);
        builder.Services.AddControllers(o => o.Filters.Add<UpstreamErrorFilter>());
        builder.Services.AddSingleton(options);
        builder.Services.AddHttpClient("downstream", c =>
        {
            if (options.Downstream is not null)
            {
                c.BaseAddress = new Uri(options.Downstream);
            }
            c.Timeout = options.RequestTimeout;
        });
        builder.Services.AddSingleton(Database.Create(options.ConnectionString));
        var app = builder.Build();
        app.UseMiddleware<HandlerTimingMiddleware>();
        app.UseMiddleware<WaitParameterMiddleware>();
        app.MapControllers();
        return app;
    }

    private static WebApplication BuildDownstream(TargetCommandLine options)
    {
        var builder = CreateBuilder(options);
        var app = builder.Build();
        app.UseMiddleware<WaitParameterMiddleware>();
        app.MapGet("/{**path}", async (HttpContext context) =>
        {
            var ms = WaitParameterMiddleware.Read(context);
            await Task.Delay(ms, context.RequestAborted);
            return Results.Text($"downstream waited {ms} ms\n");
        });
        return app;
    }

    private static WebApplicationBuilder CreateBuilder(TargetCommandLine options)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        // The seeds open 100-5,000 connections at once; Kestrel's default accept backlog (512) would drop SYNs past
        // it, and each dropped SYN costs the client a 1 s retransmit that has nothing to do with the thread pool.
        builder.WebHost.UseSockets(o => o.Backlog = 8192);
        builder.WebHost.ConfigureKestrel(k =>
        {
            k.Listen(IPAddress.Loopback, options.Port);
            k.Limits.MaxConcurrentConnections = null;
            k.Limits.MaxConcurrentUpgradedConnections = null;
        });
        return builder;
    }
}
