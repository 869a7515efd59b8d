using Microsoft.AspNetCore.Mvc;
using Tplab.Target.Infrastructure;

namespace Tplab.Target.Controllers;

/// <summary>Seed 003's five ways of waiting on the database (<c>SELECT pg_sleep</c>).</summary>
[ApiController]
public sealed class DbController(Database database) : ControllerBase
{
    /// <summary>Sync action, sync driver call.</summary>
    [HttpGet("/db-sync")]
    public IActionResult DbSync()
    {
        var ms = WaitParameterMiddleware.Read(HttpContext);
        using var connection = database.Source.OpenConnection();
        using var command = Database.SleepCommand(connection, ms);
        command.ExecuteNonQuery();
        return Ok(new { variant = "db-sync", ms });
    }

    /// <summary>Async signature, but the driver call inside is synchronous.</summary>
    [HttpGet("/db-async-sync-call")]
    public async Task<IActionResult> DbAsyncSyncCall()
    {
        var ms = WaitParameterMiddleware.Read(HttpContext);
        await using var connection = database.Source.OpenConnection();
        await using var command = Database.SleepCommand(connection, ms);
        command.ExecuteNonQuery();
        return Ok(new { variant = "db-async-sync-call", ms });
    }

    /// <summary>The sync call pushed to another pool thread.</summary>
    [HttpGet("/db-task-run")]
    public async Task<IActionResult> DbTaskRun()
    {
        var ms = WaitParameterMiddleware.Read(HttpContext);
        await Task.Run(() =>
        {
            using var connection = database.Source.OpenConnection();
            using var command = Database.SleepCommand(connection, ms);
            command.ExecuteNonQuery();
        });
        return Ok(new { variant = "db-task-run", ms });
    }

    /// <summary>Sync over async: the async driver call, then <c>.Wait()</c>.</summary>
    [HttpGet("/db-wait")]
    public IActionResult DbWait()
    {
        var ms = WaitParameterMiddleware.Read(HttpContext);
        using var connection = database.Source.OpenConnection();
        using var command = Database.SleepCommand(connection, ms);
        command.ExecuteNonQueryAsync().Wait();
        return Ok(new { variant = "db-wait", ms });
    }

    /// <summary>Async all the way.</summary>
    [HttpGet("/db-async")]
    public async Task<IActionResult> DbAsync()
    {
        var ms = WaitParameterMiddleware.Read(HttpContext);
        await using var connection = await database.Source.OpenConnectionAsync();
        await using var command = Database.SleepCommand(connection, ms);
        await command.ExecuteNonQueryAsync();
        return Ok(new { variant = "db-async", ms });
    }
}
